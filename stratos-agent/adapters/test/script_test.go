package test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/prompt"
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

func TestLoadScriptCases(t *testing.T) {
	cases := []struct{ raw, contains string }{
		{`{"turns":[{"reply":"x"}],"cases":[{"reply":"y"}]}`, "give turns (replayed per agent object) or cases"},
		{`{"repeat":true,"cases":[{"reply":"y"}]}`, "repeat applies to turns"},
		{`{"cases":[{"name":"a"},{"name":"a"}]}`, `cases[1]: name "a" is also the name of cases[0]`},
		{`{"cases":[{"when":{"promptMatches":"("}}]}`, "cases[0].when.promptMatches"},
		{`{"cases":[{"expect":{"promptMatches":"["}}]}`, "cases[0].expect.promptMatches"},
		{`{"cases":[{"when":{"call":-1}}]}`, "cases[0].when.call"},
		{`{"cases":[{"value":1,"valueJSON":"1"}]}`, "cases[0]: give reply or value"},
		{`{"cases":[{"fail":"boom"}]}`, `cases[0].fail "boom"`},
		{`{"cases":[{"when":{"labels":"x"}}]}`, `unknown field "labels"`},
	}
	for _, c := range cases {
		_, err := LoadScript(json.RawMessage(c.raw), t.TempDir())
		if agentproto.CodeOf(err) != agentproto.CodeConfiguration || !strings.Contains(err.Error(), c.contains) {
			t.Errorf("%s: got %v, want a configuration error containing %q", c.raw, err, c.contains)
		}
	}
}

func TestCaseSelection(t *testing.T) {
	s, err := LoadScript(json.RawMessage(`{"cases":[
		{"name":"third","when":{"call":3}},
		{"name":"labelled","when":{"label":"x","promptNotContains":"skip"}},
		{"name":"numbered","when":{"promptMatches":"item (?P<n>\\d+)"}},
		{"name":"default"}]}`), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		info     callInfo
		want     string
		captures string
	}{
		{callInfo{prompt: "item 12", call: 3, label: "x"}, "third", ""},
		{callInfo{prompt: "item 12", call: 1, label: "x"}, "labelled", ""},
		{callInfo{prompt: "skip item 12", call: 1, label: "x"}, "numbered", "12"},
		{callInfo{prompt: "nothing", call: 1}, "default", ""},
	} {
		got, ok := s.choose(c.info)
		if !ok || got.c.Name != c.want || (c.captures != "" && got.captures["n"] != c.captures) {
			t.Errorf("%+v: got %+v (%v), want %s %s", c.info, got, ok, c.want, c.captures)
		}
	}
}

func TestRenderValueKeepsTypes(t *testing.T) {
	out, err := renderValue(nil, json.RawMessage(`{"n": 1.50, "s": "{{captures.[1]}}", "l": [true, "{{label}}"]}`),
		map[string]any{"captures": map[string]any{"1": "x"}, "label": "r1"})
	if err != nil || string(out) != `{"l":[true,"r1"],"n":1.50,"s":"x"}` {
		t.Fatalf("got %s, %v", out, err)
	}
}

// A case answers a prompt that lists items with one entry per item:
// matches holds every match of promptMatches, for {{#each matches}}.
func TestValueJSONLoopsOverEveryMatch(t *testing.T) {
	s, err := LoadScript(json.RawMessage(`{"cases":[{"when":{"promptMatches":"- (?P<file>\\S+)"}}]}`), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	got, ok := s.choose(callInfo{prompt: "Review these files:\n- a.go\n- b.go\n- c.go\n", call: 1})
	if !ok {
		t.Fatal("no case chosen")
	}
	tpl := `{"findings": [{{#each matches}}{{#unless @first}}, {{/unless}}{"n": {{@index}}, "file": "{{file}}"}{{/each}}], "first": "{{captures.file}}"}`
	out, err := new(prompt.Inline).Render(tpl, map[string]any{"captures": got.captures, "matches": got.matches})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"findings": [{"n": 0, "file": "a.go"}, {"n": 1, "file": "b.go"}, {"n": 2, "file": "c.go"}], "first": "a.go"}`
	if out != want {
		t.Fatalf("rendered %s\nwant     %s", out, want)
	}
}
