package test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
)

func TestLoadScript(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "s.yaml"), []byte("turns:\n  - reply: from a file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := LoadScript(json.RawMessage(`{"file":"s.yaml"}`), dir)
	if err != nil || len(s.Turns) != 1 || *s.Turns[0].Reply != "from a file" {
		t.Fatalf("file script: %+v, %v", s, err)
	}
	cases := []struct{ raw, contains string }{
		{``, "needs a script"},
		{`{"turns":[{"reply":"x","value":1}]}`, "give reply or value, not both"},
		{`{"turns":[{"replyy":"x"}]}`, `unknown field "replyy"`},
		{`{"turns":[{"fail":"crash"}]}`, `turns[0].fail "crash"`},
		{`{"initialize":[{"fail":"execution"}],"turns":[]}`, `initialize[0].fail "execution"`},
		{`{"turns":[{"toolCalls":[{"input":{}}]}]}`, "toolCalls[0].tool: required"},
		{`{"file":"missing.yaml"}`, "paths resolve against the workflow directory"},
		{`{"file":"s.yaml","turns":[]}`, "must have no other fields"},
	}
	for _, c := range cases {
		_, err := LoadScript(json.RawMessage(c.raw), dir)
		if agentproto.CodeOf(err) != agentproto.CodeConfiguration || !strings.Contains(err.Error(), c.contains) {
			t.Errorf("%s: got %v, want a configuration error containing %q", c.raw, err, c.contains)
		}
	}
}
