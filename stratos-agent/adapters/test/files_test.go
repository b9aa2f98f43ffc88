package test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// A turn's files land in the agent's working directory, and the reply can
// show the directory and the worktree context the host gave the session.
func TestTurnWritesFilesAndShowsItsDirectory(t *testing.T) {
	wd := t.TempDir()
	script := `{"turns":[{"files":{"notes.txt":"first\n","src/deep/x.go":"package x\n"},"reply":"{{workingDirectory}}|{{harnessContext}}"}]}`
	spec := adapter.Spec{Name: "editor", WorkingDirectory: wd, HarnessContext: "You are working in a git worktree managed by Stratos.\n", Test: json.RawMessage(script)}
	a, err := New(spec, func(adapter.Event) {}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Initialize(context.Background()); err != nil {
		t.Fatal(err)
	}
	res, err := a.Execute(context.Background(), "edit")
	if err != nil {
		t.Fatal(err)
	}
	if want := wd + "|You are working in a git worktree managed by Stratos.\n"; res.Text != want {
		t.Fatalf("reply %q, want %q", res.Text, want)
	}
	for rel, want := range map[string]string{"notes.txt": "first\n", "src/deep/x.go": "package x\n"} {
		b, err := os.ReadFile(filepath.Join(wd, rel))
		if err != nil || string(b) != want {
			t.Errorf("%s: %q, %v; want %q", rel, b, err, want)
		}
	}
}

func TestFilesMustStayInsideTheWorkingDirectory(t *testing.T) {
	for _, path := range []string{"../outside.txt", "/etc/passwd", "a/../../b", ""} {
		raw, _ := json.Marshal(map[string]any{"turns": []any{map[string]any{"files": map[string]string{path: "x"}, "reply": "r"}}})
		_, err := LoadScript(raw, t.TempDir())
		if agentproto.CodeOf(err) != agentproto.CodeConfiguration || !strings.Contains(err.Error(), "must be a relative path inside the working directory") {
			t.Errorf("%q: got %v, want a configuration error", path, err)
		}
	}
}
