package testcases

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzLoad checks `stratos test` case files: what loads has named, unique
// cases that know their file, and each case's run overrides are a JSON
// object that puts every scripted configuration on the test harness with
// its script. Script and override files the cases name are read from the
// workflow directory (tests/scripts/s.yaml and tests/overrides/o.yaml
// exist); other paths are not followed. testdata/fuzz/FuzzLoad holds the
// acceptance tests' case files.
func FuzzLoad(f *testing.F) {
	f.Add([]byte("cases:\n  - name: first\n    input: {x: 1}\n  - name: second\n"))
	f.Add([]byte(`cases:
  - name: approves clean code
    input: {code: "x = 1", strict: [false]}
    scripts:
      critic: {file: tests/scripts/s.yaml}
      "critic#pass-2": {turns: [{reply: ok}]}
    overrides: {agents: {critic: {model: m}}, decision: {}}
    expect:
      output: {verdicts: [approve]}
      outputIncludes: {verdicts: [approve]}
      calls: {critic: 1, "critic#pass-2": 1}
      error: structured_output
  - name: overrides from a file
    overrides: {file: tests/overrides/o.yaml}
`))
	f.Add([]byte("cases:\n  - name: a\n    overrides: [1]\n  - name: b\n    overrides: {agents: 3}\n    scripts: {x: {file: 7}}\n"))
	// Mistyped and unknown fields, which the errors name by path and value.
	f.Add([]byte("defaults:\n  budget: {usd: \"1\"}\ncases:\n  - name: a\n    expect:\n      calls: {c: [1]}\n      outptu: 1\n"))
	f.Add([]byte("cases:\n  - &c\n    name: a\n    allowRealHarness: \"yes\"\n  - <<: *c\n    name: b\n    budget: {tokens: 1.5, eur: 1}\n    expect: {outputIncludes: {s: {$contains: 1}}}\n"))
	dir := f.TempDir() // one per worker: its inputs run one at a time
	for name, content := range map[string]string{"tests/scripts/s.yaml": "turns:\n  - reply: from a file\n", "tests/overrides/o.yaml": "agents:\n  critic: {effort: high}\n"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		write(t, dir, "tests/a.yaml", string(data))
		cases, err := Load(dir)
		if err != nil {
			if !strings.HasPrefix(err.Error(), filepath.Join("tests", "a.yaml")+":") {
				t.Fatalf("error does not name the case file: %v", err)
			}
			return
		}
		names := map[string]bool{}
		for _, c := range cases {
			if c.Name == "" || names[c.Name] || c.File != filepath.Join("tests", "a.yaml") {
				t.Fatalf("case %q of %q: empty or repeated name, or not its file", c.Name, c.File)
			}
			names[c.Name] = true
			if !readsOnlyLocalFiles(c) {
				continue
			}
			checkRunOverrides(t, c, dir)
		}
	})
}

// readsOnlyLocalFiles reports whether every {"file": path} of c names a
// path inside the workflow directory.
func readsOnlyLocalFiles(c Case) bool {
	refs := []json.RawMessage{c.Overrides}
	for _, s := range c.Scripts {
		refs = append(refs, s)
	}
	for _, raw := range refs {
		var ref map[string]any
		if json.Unmarshal(raw, &ref) != nil || len(ref) != 1 {
			continue
		}
		if p, ok := ref["file"].(string); ok && !filepath.IsLocal(p) {
			return false
		}
	}
	return true
}

func checkRunOverrides(t *testing.T, c Case, dir string) {
	t.Helper()
	declared := map[string]any{"critic": map[string]any{"harness": "claude-code"}, "judge": map[string]any{"harness": "test"}}
	raw, err := c.RunOverrides(dir, Declared{Own: declared})
	if err != nil {
		return
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err != nil || doc == nil {
		t.Fatalf("run overrides %s are not a JSON object: %v", raw, err)
	}
	var agents map[string]struct {
		Harness string          `json:"harness"`
		Test    json.RawMessage `json:"test"`
	}
	if _, given := doc["agents"]; given {
		if err := json.Unmarshal(doc["agents"], &agents); err != nil {
			t.Fatalf("run overrides' agents %s: %v", doc["agents"], err)
		}
	}
	for target := range c.Scripts {
		if a, ok := agents[target]; !ok || a.Harness != "test" || len(a.Test) == 0 {
			t.Fatalf("scripted configuration %q is not on the test harness with its script: %s", target, raw)
		}
	}
	if !c.AllowRealHarness && agents["critic"].Harness != "test" {
		t.Fatalf("configuration critic, on claude-code, is neither scripted nor refused: %s", raw)
	}
}

// FuzzJudge checks the matching rules: a run that produced exactly what a
// case expects passes it (an output includes itself), and a run whose
// calls differ fails it, naming the configuration.
func FuzzJudge(f *testing.F) {
	f.Add(`{"verdicts":["approve",{"a":1,"b":[true,null]}]}`, "", "critic", 1)
	f.Add(`[1, 2.50, 1e3, "x"]`, "structured_output", "critic#pass-2", 3)
	f.Add(`null`, "", "", 0)
	f.Add(`not json`, "", "x", -1)
	f.Fuzz(func(t *testing.T, output, errCode, target string, calls int) {
		e := Expect{Output: json.RawMessage(output), OutputIncludes: json.RawMessage(output), Error: errCode, Calls: map[string]int{target: calls}}
		o := Observed{Output: json.RawMessage(output), Calls: map[string]int{target: calls}}
		if errCode != "" {
			o.ErrorCodes, o.Output = []string{"cause", errCode}, nil
		}
		if diffs := e.Judge(o); len(diffs) > 0 {
			t.Fatalf("the expected observation fails: %q", diffs)
		}
		o.Calls = map[string]int{target: calls + 1}
		diffs := e.Judge(o)
		if len(diffs) != 1 || !strings.Contains(diffs[0], "calls of "+target+":") {
			t.Fatalf("a call too many: %q", diffs)
		}
	})
}

// FuzzCount reads any events file: the counts are never negative and
// never more than the lines could hold (two calls per started invocation,
// one served case per line).
func FuzzCount(f *testing.F) {
	f.Add(`{"type":"agent.invocation.started","details":{"configId":"critic","name":"critic#pass-2"}}` + "\n" +
		`{"type":"test.case","label":"critic","details":{"case":"default"}}` + "\n" +
		`{"type":"test.case","details":{"config":"judge","case":"cases[0]"}}` + "\n" + `{"type":"agent.invocation.st`)
	f.Add("not json\n\n{}\n")
	file := filepath.Join(f.TempDir(), "events.jsonl") // one per worker: its inputs run one at a time
	f.Fuzz(func(t *testing.T, events string) {
		if err := os.WriteFile(file, []byte(events), 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := Count(file)
		if err != nil {
			t.Fatalf("Count: %v", err)
		}
		lines := strings.Count(events, "\n") + 1
		calls, served := 0, 0
		for _, n := range c.Calls {
			calls += n
			if n <= 0 {
				t.Fatalf("calls %v", c.Calls)
			}
		}
		for _, byCase := range c.Served {
			for _, n := range byCase {
				served += n
				if n <= 0 {
					t.Fatalf("served %v", c.Served)
				}
			}
		}
		if calls > 2*lines || served > lines {
			t.Fatalf("%d calls and %d served cases from %d lines", calls, served, lines)
		}
	})
}
