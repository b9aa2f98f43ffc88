package gemini

import (
	"os"
	"path/filepath"
	"testing"
)

// A resumed session's recording gets a name no new recording takes, once:
// a later resume finds it there and leaves the empty recordings alone.
func TestKeepResumedSessionRenamesTheRecordingOnce(t *testing.T) {
	home := t.TempDir()
	chats := filepath.Join(home, ".gemini", "tmp", "work", "chats")
	if err := os.MkdirAll(chats, 0o700); err != nil {
		t.Fatal(err)
	}
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(chats, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("session-2026-12-07T03-40-abcdef12.jsonl", "the conversation")
	write("session-2026-12-07T03-40-99999999.jsonl", "another session")
	if err := keepResumedSession(home, "abcdef12-0000-4000-8000-000000000000"); err != nil {
		t.Fatal(err)
	}
	kept := filepath.Join(chats, "session-"+keptSessionStamp+"-abcdef12.jsonl")
	if b, err := os.ReadFile(kept); err != nil || string(b) != "the conversation" {
		t.Fatalf("kept recording: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(chats, "session-2026-12-07T03-40-99999999.jsonl")); err != nil {
		t.Fatalf("another session's recording was touched: %v", err)
	}
	write("session-2026-12-07T03-41-abcdef12.jsonl", "an empty recording a load started")
	if err := keepResumedSession(home, "abcdef12-0000-4000-8000-000000000000"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(kept); string(b) != "the conversation" {
		t.Fatalf("a second resume replaced the kept recording with %q", b)
	}
}
