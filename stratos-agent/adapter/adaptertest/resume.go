package adaptertest

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

func resumesSessions(c adapter.Capabilities) string {
	if !c.ResumesSessions {
		return "the harness cannot continue an earlier execution's session (Capabilities.ResumesSessions is false): a resumed run's agent goes on by transcript, in a new session whose first prompt carries the replayed exchange (host/transcript.go)"
	}
	return ""
}

// resumeContinuesTheSession is a resumed run's agent: a session executes
// once and closes (the run ended); a new adapter, given the first one's
// native session ID and a copy of its state directory (what the agent host
// does on resume), continues the conversation, so the model's next request
// carries the first exchange.
func resumeContinuesTheSession(t *testing.T, b *bed) {
	b.start(Script{Turns: []Turn{{Marker: "[one]", Text: "first answer"}, {Marker: "[two]", Text: "second answer"}}})
	first := t.TempDir()
	a := b.open(nil, func(s *adapter.Spec) { s.StateDir = first })
	b.execute(a, "[one] hello")
	if err := a.Close(context.Background()); err != nil {
		t.Fatalf("close: %v", err)
	}
	second := t.TempDir()
	copyTree(t, first, second)
	resumed := b.open(nil, func(s *adapter.Spec) {
		s.StateDir, s.Resume = second, &adapter.Resume{SessionID: b.nativeSessionID(), Calls: 1}
	})
	if got := b.execute(resumed, "[two] and now").Text; got != "second answer" {
		t.Fatalf("reply of the resumed session %q", got)
	}
	reqs := b.requestsFor("[two] and now")
	if len(reqs) == 0 {
		t.Fatalf("the model never received the resumed session's prompt")
	}
	if c := reqs[0].Conversation; !strings.Contains(c, "[one] hello") || !strings.Contains(c, "first answer") {
		t.Errorf("the resumed session's request lacks the first exchange: %q", c)
	}
}

// nativeSessionID is the harness session ID the recorded events named
// last ("" when none did: the adapter keeps its session in its state).
func (b *bed) nativeSessionID() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	id := ""
	for _, e := range b.events {
		if e.IDs.NativeSessionID != "" {
			id = e.IDs.NativeSessionID
		}
	}
	return id
}

// copyTree copies the regular files and directories under from into to.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		target := filepath.Join(to, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o700)
		case d.Type().IsRegular():
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			return os.WriteFile(target, data, 0o600)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
