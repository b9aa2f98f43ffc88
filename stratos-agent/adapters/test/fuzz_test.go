package test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
)

// FuzzLoadScript checks inline test-harness scripts: a script that loads
// keeps every rule the format states, choosing a case for any prompt and
// rendering any reply or value of it ends without a panic, and every
// failure is a configuration error.
func FuzzLoadScript(f *testing.F) {
	for _, s := range []string{
		`{"turns":[{"reply":"Hello, {{prompt}}!"}],"repeat":true}`,
		`{"turns":[{"expect":{"promptContains":"Review"},"toolCalls":[{"tool":"read","input":{"path":"a.ts"},"output":"x"}],"reply":"I read {{#each tools}}{{input.path}}{{/each}}"},{"reply":"{{#each history}}{{prompt}}{{/each}}"}]}`,
		`{"turns":[{"value":{"approved":true,"issues":[]}}]}`,
		`{"cases":[{"name":"third","when":{"call":3}},{"name":"labelled","when":{"label":"x","promptNotContains":"skip"}},{"name":"numbered","when":{"promptMatches":"item (?P<n>\\d+)"},"valueJSON":"{\"n\": {{captures.n}}}"},{"name":"default","files":{"out/a.txt":"{{prompt}}"}}]}`,
		`{"initialize":[{"fail":"authentication","message":"no"},{"delayMs":1}],"turns":[{"fail":"model_unavailable"},{"usage":{"inputTokens":3,"costUsd":0.1}}]}`,
		`{"cases":[{"when":{"promptMatches":"("}}]}`,
		`{"turns":[{"files":{"../x":"y"}}]}`,
	} {
		f.Add(s, "Review item 12 please")
	}
	f.Fuzz(func(t *testing.T, raw, prompt string) {
		var ref struct {
			File string `json:"file"`
		}
		if json.Unmarshal([]byte(raw), &ref) == nil && ref.File != "" {
			return // a script file: FuzzLoadScriptFile's inputs, not paths on this machine
		}
		s, err := LoadScript(json.RawMessage(raw), "testdata")
		checkLoaded(t, s, err)
		if s != nil {
			exercise(t, s, prompt)
		}
	})
}

// FuzzLoadScriptFile checks scripts given as {"file": path}, YAML or JSON
// (what tests/scripts/*.yaml hold), like FuzzLoadScript.
func FuzzLoadScriptFile(f *testing.F) {
	f.Add([]byte("turns:\n  - reply: from a file\n"))
	f.Add([]byte("cases:\n  - name: a\n    when: {promptMatches: 'x(\\d)'}\n    value: {n: '{{captures.[1]}}'}\n  - reply: default\n"))
	f.Add([]byte("turns: [{reply: &r x}, {reply: *r}]\n"))
	f.Add([]byte("{1: 2}\n"))
	dir := f.TempDir() // one per worker: its inputs run one at a time
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, "s.yaml"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := LoadScript(json.RawMessage(`{"file":"s.yaml"}`), dir)
		checkLoaded(t, s, err)
		if s != nil {
			exercise(t, s, "a prompt")
		}
	})
}

// checkLoaded fails unless LoadScript gave a script that keeps the
// format's rules or a configuration error.
func checkLoaded(t *testing.T, s *Script, err error) {
	t.Helper()
	if err != nil {
		if s != nil || agentproto.CodeOf(err) != agentproto.CodeConfiguration {
			t.Fatalf("LoadScript: %v (code %q) with script %v", err, agentproto.CodeOf(err), s)
		}
		return
	}
	if len(s.Turns) > 0 && len(s.Cases) > 0 || s.Repeat && len(s.Cases) > 0 {
		t.Fatalf("loaded a script with turns and cases, or repeated cases: %+v", s)
	}
	for _, a := range s.Initialize {
		if _, ok := initFailures[a.Fail]; a.Fail != "" && !ok {
			t.Fatalf("loaded initialize.fail %q", a.Fail)
		}
	}
	names := map[string]bool{}
	for i := range s.Cases {
		c := &s.Cases[i]
		if c.Name == "" || names[c.Name] {
			t.Fatalf("case %d named %q: empty or taken", i, c.Name)
		}
		names[c.Name] = true
		if c.When != nil && (c.When.Call < 0 || (c.When.PromptMatches != "") != (c.When.re != nil)) {
			t.Fatalf("case %s loaded with when %+v", c.Name, c.When)
		}
		checkReaction(t, c.Expect, &c.Reaction)
	}
	for i := range s.Turns {
		checkReaction(t, s.Turns[i].Expect, &s.Turns[i].Reaction)
	}
}

func checkReaction(t *testing.T, e *Expect, r *Reaction) {
	t.Helper()
	if e != nil && (e.PromptMatches != "") != (e.re != nil) {
		t.Fatalf("expect.promptMatches %q loaded without its expression", e.PromptMatches)
	}
	if _, ok := turnFailures[r.Fail]; r.Fail != "" && !ok {
		t.Fatalf("loaded fail %q", r.Fail)
	}
	if r.DelayMs < 0 {
		t.Fatalf("loaded delayMs %d", r.DelayMs)
	}
	replies := 0
	for _, given := range []bool{r.Reply != nil, len(r.Value) > 0, r.ValueJSON != nil} {
		if given {
			replies++
		}
	}
	if replies > 1 {
		t.Fatalf("loaded a reaction with %d replies", replies)
	}
	for path := range r.Files {
		if !filepath.IsLocal(path) {
			t.Fatalf("loaded files path %q outside the working directory", path)
		}
	}
	for _, c := range r.ToolCalls {
		if c.Tool == "" || (len(c.Output) > 0 && c.Error != "") {
			t.Fatalf("loaded tool call %+v", c)
		}
	}
}

// exercise chooses a case for prompt and renders every reply and value of
// the script as the harness would, over a reply context of that prompt;
// rendering may fail (a broken template), but must not panic.
func exercise(t *testing.T, s *Script, prompt string) {
	t.Helper()
	captures := map[string]any{}
	if len(s.Cases) > 0 {
		if c, ok := s.choose(callInfo{prompt: prompt, label: "x", call: 1}); ok {
			captures = c.captures
		}
	}
	rctx := map[string]any{"prompt": prompt, "turn": 1, "call": 1, "captures": captures, "label": "x",
		"history": []any{map[string]any{"prompt": prompt, "reply": "r"}}, "tools": []any{map[string]any{"tool": "read", "input": map[string]any{"path": "a"}}}}
	reactions := make([]*Reaction, 0, len(s.Turns)+len(s.Cases))
	for i := range s.Turns {
		reactions = append(reactions, &s.Turns[i].Reaction)
	}
	for i := range s.Cases {
		reactions = append(reactions, &s.Cases[i].Reaction)
	}
	for _, r := range reactions {
		if r.Reply != nil {
			render(mustJSON(t, *r.Reply), rctx)
		}
		if r.ValueJSON != nil {
			render(mustJSON(t, *r.ValueJSON), rctx)
		}
		if len(r.Value) > 0 {
			render(r.Value, rctx)
		}
		for _, content := range r.Files {
			render(mustJSON(t, content), rctx)
		}
	}
}

// render renders a scripted value as the harness does: an error is the
// script's, a panic fails the target.
func render(raw json.RawMessage, rctx map[string]any) {
	_, _ = renderValue(nil, raw, rctx)
}

func mustJSON(t *testing.T, s string) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
