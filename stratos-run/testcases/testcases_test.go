package testcases

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadReadsCaseFilesOnly(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "tests/b.yaml", "cases:\n  - name: second\n")
	write(t, dir, "tests/a.yaml", "cases:\n  - name: first\n    input: {x: 1}\n")
	write(t, dir, "tests/scripts/agent.yaml", "turns: []\n")
	cases, err := Load(dir)
	if err != nil || len(cases) != 2 || cases[0].Name != "first" || cases[1].File != filepath.Join("tests", "b.yaml") {
		t.Fatalf("got %+v, %v", cases, err)
	}
}

func TestLoadRejects(t *testing.T) {
	for content, want := range map[string]string{
		"cases:\n  - input: {}\n": "tests/c.yaml:2: cases[0]: name is required",
		"cases:\n  - name: x\n    scripts: {a: 1}\n  - name: typo\n    expected: {}\n": `tests/c.yaml:5: case "typo": cases[1]: unknown field "expected" (known: name, input, overrides, scripts, budget, allowRealHarness, decisions, expect)`,
		"cases:\n  - name: a\n    budget: {usd: -1}\n":                                 "budget.usd -1: must be a positive number",
		"cases:\n  - name: a\n    budget: {tokens: 1.5}\n":                             "budget.tokens: must be a whole number (that fits in 64 bits), got 1.5",
		"cases:\n  - name: a\n    budget: {token: 5}\n":                                `unknown field "token"`,
		"cases:\n  - name: a\ncase: []\n":                                              `tests/c.yaml:3: unknown field "case"`,
		"cases:\n  - name: a\n  - name: a\n":                                           `tests/c.yaml:3: case "a": the name is also a case's in tests/c.yaml`,
		"cases:\n  - name: a\n    expected: {}\n":                                      `unknown field "expected"`,
		"turns:\n  - reply: x\n":                                                       "harness scripts belong in tests/scripts/",
		"cases:\n  - name: a\n    expect: {calls: x}\n":                                `expect.calls: must be a mapping, got "x"`,
		"cases:\n  - name: a\n    input: {}\n  nmae: b\n":                              "tests/c.yaml: yaml: line 2: did not find expected '-' indicator",
	} {
		dir := t.TempDir()
		write(t, dir, "tests/c.yaml", content)
		if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want %q", content, err, want)
		}
	}
}

// A field of the wrong type or an unknown one is named by its path in the
// case, with what it must be and the value found, at the field's line;
// not in encoding/json's words (Go types, no path, no value).
func TestLoadNamesTheFieldAndTheValue(t *testing.T) {
	for content, want := range map[string]string{
		"cases:\n  - name: a\n    allowRealHarness: \"yes\"\n":                       `tests/c.yaml:3: case "a": cases[0]: allowRealHarness: must be true or false, got "yes"`,
		"cases:\n  - name: a\n    expect:\n      calls: {critic: 1, judge: \"2\"}\n": `tests/c.yaml:4: case "a": cases[0]: expect.calls.judge: must be a whole number (that fits in 64 bits), got "2"`,
		"cases:\n  - name: a\n    expect:\n      error: 3\n":                         `tests/c.yaml:4: case "a": cases[0]: expect.error: must be a string, got 3`,
		"cases:\n  - name: a\n    budget: x\n":                                       `tests/c.yaml:3: case "a": cases[0]: budget: must be a mapping {usd, tokens}, got "x"`,
		"cases:\n  - name: a\n    budget: {usd: \"1\"}\n":                            `tests/c.yaml:3: case "a": cases[0]: budget.usd: must be a number, got "1"`,
		"cases:\n  - name: a\n    scripts: [x]\n":                                    `tests/c.yaml:3: case "a": cases[0]: scripts: must be a mapping, got ["x"]`,
		"cases:\n  - name: [a]\n":                                                    `tests/c.yaml:2: cases[0]: name: must be a string, got ["a"]`,
		"cases:\n  - name: a\n    budget: {usd: 1,\n      eur: 2}\n":                 `tests/c.yaml:4: case "a": cases[0]: budget: unknown field "eur" (known: usd, tokens)`,
		"cases:\n  - name: a\n    expect:\n      outptu: {}\n":                       `tests/c.yaml:4: case "a": cases[0]: expect: unknown field "outptu" (known: output, outputIncludes, error, calls)`,
		"defaults:\n  budget: {tokens: 1.5}\ncases:\n  - name: a\n":                  `tests/c.yaml:2: defaults: budget.tokens: must be a whole number (that fits in 64 bits), got 1.5`,
		"defaults:\n  input: {}\n  expect: {}\ncases:\n  - name: a\n":                `tests/c.yaml:3: defaults: unknown field "expect" (known: input, overrides, scripts, budget, allowRealHarness, decisions)`,
	} {
		dir := t.TempDir()
		write(t, dir, "tests/c.yaml", content)
		if _, err := Load(dir); err == nil || err.Error() != want {
			t.Errorf("%q:\n got %v\nwant %s", content, err, want)
		}
	}
}

// Expectations no run can meet are refused when the cases are loaded
// (stratos test --check), not found by running the case.
func TestLoadRefusesExpectationsNoRunCanMeet(t *testing.T) {
	for content, want := range map[string]string{
		"cases:\n  - name: a\n    expect: {calls: {critic: -2}}\n":                              `case "a": cases[0]: expect.calls.critic: -2 is not a number of calls (0 or more)`,
		"cases:\n  - name: a\n    expect: {outputIncludes: {s: {$contains: 3}}}\n":              `case "a": cases[0]: expect.outputIncludes.s: $contains must be the only field of its object and a string, got {"$contains":3}`,
		"cases:\n  - name: a\n    expect: {outputIncludes: {l: [1, {$contains: x, and: y}]}}\n": `expect.outputIncludes.l[1]: $contains must be the only field of its object and a string`,
	} {
		dir := t.TempDir()
		write(t, dir, "tests/c.yaml", content)
		if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q:\n got %v\nwant %s", content, err, want)
		}
	}
	dir := t.TempDir()
	write(t, dir, "tests/c.yaml", "cases:\n  - name: a\n    expect: {outputIncludes: {s: {$contains: x}, l: [{$contains: y}]}, calls: {critic: 0}}\n")
	if _, err := Load(dir); err != nil {
		t.Errorf("valid matchers and a count of 0: %v", err)
	}
}

// A {file: …} whose file is not a path is refused as such, for overrides,
// a script and decisions alike, not passed on as inline content (and
// refused there for an unknown field "file").
func TestFileReferencesMustBePaths(t *testing.T) {
	declared := Declared{Own: map[string]any{"critic": map[string]any{"harness": "test"}}}
	for _, c := range []Case{
		{Name: "o", Overrides: json.RawMessage(`{"file": 3}`)},
		{Name: "s", Scripts: map[string]json.RawMessage{"critic": json.RawMessage(`{"file": ["a.yaml"]}`)}},
		{Name: "d", Decisions: json.RawMessage(`{"file": ""}`)},
	} {
		_, err := c.RunOverrides(t.TempDir(), declared)
		if err == nil || !strings.Contains(err.Error(), "file: must be the path of a YAML or JSON file, relative to the workflow directory, got ") {
			t.Errorf("case %s: %v", c.Name, err)
		}
	}
}

func TestRunOverridesPutsScriptedConfigsOnTheTestHarness(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "tests/scripts/critic.yaml", "cases:\n  - reply: ok\n")
	c := Case{
		Overrides: json.RawMessage(`{"agents":{"critic":{"effort":"high"}},"decision":{"k":1}}`),
		Scripts:   map[string]json.RawMessage{"critic": json.RawMessage(`{"file":"tests/scripts/critic.yaml"}`), "judge#r1": json.RawMessage(`{"turns":[]}`)},
	}
	got, err := c.RunOverrides(dir, Declared{Own: map[string]any{"critic": map[string]any{"harness": "claude-code"}}})
	want := `{"agents":{"critic":{"effort":"high","harness":"test","test":{"cases":[{"reply":"ok"}]}},"judge#r1":{"harness":"test","test":{"turns":[]}}},"decision":{"k":1,"provider":"test"}}`
	if err != nil || string(got) != want {
		t.Fatalf("got %s, %v\nwant %s", got, err, want)
	}
}

// Overrides whose agents, or one of whose agents, are not an object are
// refused with the field, not dropped or passed on to the run.
func TestRunOverridesRefusesAgentsThatAreNotObjects(t *testing.T) {
	for overrides, want := range map[string]string{
		`{"agents":3}`:                     "overrides.agents: must be an object of agent settings by configuration, not 3",
		`{"agents":{"critic":{},"A":0}}`:   "overrides.agents.A: must be an object of agent settings, not 0",
		`{"agents":{"critic":["x"]}}`:      `overrides.agents.critic: must be an object of agent settings, not ["x"]`,
		`{"agents":{"critic":null},"x":1}`: "overrides.agents.critic: must be an object of agent settings, not null",
	} {
		c := Case{Name: "c", Overrides: json.RawMessage(overrides)}
		if got, err := c.RunOverrides(t.TempDir(), Declared{}); err == nil || err.Error() != want {
			t.Errorf("overrides %s: got %s, %v; want the error %q", overrides, got, err, want)
		}
	}
}

func TestRunOverridesRefusesUnscriptedConfigs(t *testing.T) {
	declared := map[string]any{"critic": map[string]any{"harness": "claude-code"}, "judge": map[string]any{"harness": "codex"},
		"scripted": map[string]any{"harness": "test", "test": map[string]any{"turns": []any{}}}}
	c := Case{Name: "c", Scripts: map[string]json.RawMessage{"judge#r1": json.RawMessage(`{"turns":[]}`)}}
	got, err := c.RunOverrides(t.TempDir(), Declared{Own: declared})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Agents map[string]struct {
			Harness string `json:"harness"`
			Test    struct {
				Cases []struct{ Name, Fail, Message string }
			} `json:"test"`
		} `json:"agents"`
	}
	if err := json.Unmarshal(got, &doc); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"critic", "judge"} {
		a := doc.Agents[id]
		if a.Harness != "test" || len(a.Test.Cases) != 1 || a.Test.Cases[0].Name != Unscripted || a.Test.Cases[0].Fail != "execution" ||
			!strings.Contains(a.Test.Cases[0].Message, "allowRealHarness") {
			t.Errorf("%s is not refused: %s", id, got)
		}
	}
	if _, set := doc.Agents["scripted"]; set {
		t.Errorf("a configuration on the test harness in workflow.yaml is refused: %s", got)
	}
	c.AllowRealHarness = true
	if got, err := c.RunOverrides(t.TempDir(), Declared{Own: declared}); err != nil || strings.Contains(string(got), Unscripted) {
		t.Errorf("allowRealHarness: got %s, %v", got, err)
	}
}

func TestJudge(t *testing.T) {
	ok := Observed{Output: json.RawMessage(`{"a":[1,{"b":2,"c":3}],"d":"x"}`), Calls: map[string]int{"judge": 2}}
	failed := Observed{ErrorCodes: []string{"child_failed", "structured_output"}, ErrorMessage: "boom", Calls: map[string]int{}}
	cases := []struct {
		expect Expect
		obs    Observed
		want   string // "" passes
	}{
		{Expect{Output: json.RawMessage(`{"d":"x","a":[1,{"c":3,"b":2}]}`)}, ok, ""},
		{Expect{Output: json.RawMessage(`{"d":"x"}`)}, ok, "output: expected"},
		{Expect{OutputIncludes: json.RawMessage(`{"a":[1,{"b":2}]}`)}, ok, ""},
		{Expect{OutputIncludes: json.RawMessage(`{"a":[1,{"b":3}]}`)}, ok, "output.a[1].b: expected 3, got 2"},
		{Expect{OutputIncludes: json.RawMessage(`{"a":[1]}`)}, ok, "output.a: expected an array of 1"},
		{Expect{OutputIncludes: json.RawMessage(`{"z":1}`)}, ok, "output.z: missing"},
		{Expect{OutputIncludes: json.RawMessage(`{"d":{"$contains":"x"},"a":[1,{"b":2}]}`)}, ok, ""},
		{Expect{OutputIncludes: json.RawMessage(`{"d":{"$contains":"y"}}`)}, ok, `output.d: expected a string containing "y", got "x"`},
		{Expect{OutputIncludes: json.RawMessage(`{"a":{"$contains":"1"}}`)}, ok, `output.a: expected a string containing "1", got [1,`},
		{Expect{OutputIncludes: json.RawMessage(`{"d":{"$contains":1}}`)}, ok, "output.d: $contains must be the only field of its object and a string"},
		{Expect{OutputIncludes: json.RawMessage(`{"d":{"$contains":"x","b":1}}`)}, ok, "output.d: $contains must be the only field"},
		{Expect{Calls: map[string]int{"judge": 2, "judge#r1": 0}}, ok, ""},
		{Expect{Calls: map[string]int{"judge": 3}}, ok, "calls of judge: expected 3, got 2"},
		{Expect{Error: "structured_output"}, failed, ""},
		{Expect{Error: "execution"}, failed, "expected the error execution, got"},
		{Expect{Error: "execution"}, ok, "the run succeeded"},
		{Expect{}, failed, "expected success, the run failed [child_failed]: boom"},
	}
	for i, c := range cases {
		got := strings.Join(c.expect.Judge(c.obs), "; ")
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%d: got %q, want %q", i, got, c.want)
		}
	}
}

func TestCount(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "events.jsonl", strings.Join([]string{
		`{"type":"agent.invocation.started","details":{"name":"judge#r1","configId":"judge"},"label":"r1"}`,
		`{"type":"test.case","label":"r1","details":{"case":"odd","config":"judge"}}`,
		`{"type":"agent.invocation.started","details":{"name":"judge","configId":"judge"}}`,
		`{"type":"test.case","details":{"case":"odd","config":"judge"}}`,
		`{"type":"agent.invocation.started","details":{"name":"agent #3"}}`,
		`{"type":"agent.invocat`,
	}, "\n"))
	c, err := Count(filepath.Join(dir, "events.jsonl"))
	if err != nil || c.Calls["judge"] != 2 || c.Calls["judge#r1"] != 1 || c.Calls["agent #3"] != 1 || c.Served["judge"]["odd"] != 2 {
		t.Fatalf("got %+v, %v", c, err)
	}
	if c, err := Count(filepath.Join(dir, "missing.jsonl")); err != nil || len(c.Calls) != 0 {
		t.Fatalf("missing file: %+v, %v", c, err)
	}
}

// Case files and the files they name are read bounded, and only as
// regular files: a FIFO or a device would block or never end.
func TestCaseFilesAreBoundedRegularFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "tests/big.yaml", "cases:\n  - name: big\n    input: {x: \""+strings.Repeat("x", MaxFileBytes)+"\"}\n")
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "tests/big.yaml: read "+filepath.Join(dir, "tests", "big.yaml")+": 16777256 bytes, over the limit of 16777216 bytes (16 MiB)") {
		t.Errorf("a case file over the limit: %v", err)
	}
	c := Case{Name: "c", Scripts: map[string]json.RawMessage{"writer": json.RawMessage(`{"file": "/dev/zero"}`)}}
	if _, err := c.RunOverrides(dir, Declared{}); err == nil || !strings.Contains(err.Error(), "scripts.writer: read /dev/zero: not a regular file (a device)") {
		t.Errorf("a script naming /dev/zero: %v", err)
	}
}

// A record mixing lines of version 0 of the event vocabulary (kept from a
// real run) with the same events as version 1 writes them counts each
// event once per version.
func TestCountReadsEveryVersion(t *testing.T) {
	c, err := Count(filepath.Join("testdata", "events-v0-v1.jsonl"))
	want := Counts{Calls: map[string]int{"real": 2}, Served: map[string]map[string]int{"echo": {"cases[0]": 2}}}
	if err != nil || !reflect.DeepEqual(c, want) {
		t.Fatalf("got %+v, %v; want %+v", c, err, want)
	}
}

// An execute the stand-in script of an unscripted configuration refused
// fails the case, whether or not the workflow caught the failure.
func TestJudgeFailsUnscriptedCalls(t *testing.T) {
	o := Observed{Output: json.RawMessage(`{}`), Served: map[string]map[string]int{"critic": {Unscripted: 2}, "judge": {"cases[0]": 1}}}
	got := Expect{}.Judge(o)
	if len(got) != 1 || !strings.Contains(got[0], "agent configuration critic is not scripted by the case: 2 execute(s) refused") {
		t.Fatalf("got %q", got)
	}
}

// A case file's defaults reach every case that does not give its own:
// scripts per target, the other fields whole; YAML anchors and merge keys
// work as YAML has them.
func TestLoadAppliesDefaults(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "tests/d.yaml", `defaults:
  input: {x: 1}
  budget: {tokens: 100}
  allowRealHarness: true
  scripts:
    critic: {turns: [{reply: default}]}
    judge: {turns: [{reply: default}]}
common: &common
  input: {x: 3}
cases:
  - name: plain
  - name: own
    input: {x: 2}
    allowRealHarness: false
    scripts:
      critic: {turns: [{reply: own}]}
  - <<: *common
    name: merged
`)
	_, err := Load(dir)
	if err == nil || !strings.Contains(err.Error(), `tests/d.yaml:8: unknown field "common"`) {
		t.Fatalf("a top-level anchor outside defaults and cases: %v", err)
	}
	write(t, dir, "tests/d.yaml", strings.Replace(mustRead(t, dir, "tests/d.yaml"), "common: &common\n  input: {x: 3}\ncases:\n", "cases:\n  - &common\n    name: anchored\n    input: {x: 3}\n", 1))
	cases, err := Load(dir)
	if err != nil || len(cases) != 4 {
		t.Fatalf("got %+v, %v", cases, err)
	}
	plain, own, merged := cases[1], cases[2], cases[3]
	if string(plain.Input) != `{"x":1}` || plain.Budget == nil || *plain.Budget.Tokens != 100 || !plain.AllowRealHarness ||
		string(plain.Scripts["critic"]) != `{"turns":[{"reply":"default"}]}` || plain.ScriptProblem("judge", "m").Line != 7 {
		t.Errorf("plain: %+v", plain)
	}
	if string(own.Input) != `{"x":2}` || own.AllowRealHarness || string(own.Scripts["critic"]) != `{"turns":[{"reply":"own"}]}` ||
		string(own.Scripts["judge"]) != `{"turns":[{"reply":"default"}]}` || own.ScriptProblem("critic", "m").Line != 17 {
		t.Errorf("own: %+v", own)
	}
	if merged.Name != "merged" || string(merged.Input) != `{"x":3}` {
		t.Errorf("merged: %+v", merged)
	}
}

func mustRead(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A structured-output retry is a call of the agent that got it, under its
// configuration and label, as the test harness numbers calls.
func TestCountCountsRetriesAsCalls(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "events.jsonl", `{"v":1,"type":"agent.invocation.started","timestamp":"2026-12-06T07:54:27Z","executionId":"x","agentId":"x/agent-1","details":{"name":"critic#a","promptKind":"text","configId":"critic"}}
{"v":1,"type":"agent.invocation.started","timestamp":"2026-12-06T07:54:27Z","executionId":"x","agentId":"x/agent-2","details":{"name":"critic#b","promptKind":"text","configId":"critic"}}
{"v":1,"type":"agent.structured_output.retry","timestamp":"2026-12-06T07:54:28Z","executionId":"x","agentId":"x/agent-2","details":{"attempt":2,"of":2,"issues":[]}}
`)
	c, err := Count(filepath.Join(dir, "events.jsonl"))
	want := map[string]int{"critic": 3, "critic#a": 1, "critic#b": 2}
	if err != nil || !reflect.DeepEqual(c.Calls, want) {
		t.Fatalf("got %v, %v; want %v", c.Calls, err, want)
	}
}

// A case scripts a child's agents by the child's name: the script goes to
// the configuration of that name, which the child inherits; the child's
// unscripted configurations are refused as the workflow's own are.
func TestRunOverridesScriptsChildren(t *testing.T) {
	declared := Declared{Own: map[string]any{"lead": map[string]any{"harness": "codex"}},
		Children: map[string]map[string]any{"child": {"writer": map[string]any{"harness": "codex"}, "editor": map[string]any{"harness": "codex"}, "lead": nil}}}
	c := Case{Name: "c", Scripts: map[string]json.RawMessage{"lead": json.RawMessage(`{"turns":[]}`), "child/writer#w1": json.RawMessage(`{"cases":[]}`)}}
	got, err := c.RunOverrides(t.TempDir(), declared)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"writer#w1":{"harness":"test","test":{"cases":[]}}`, `"editor":{"harness":"test","test":{"cases":[{"fail":"execution"`, `"writer":{"harness":"test","test":{"cases":[{"fail":"execution"`} {
		if !strings.Contains(string(got), want) {
			t.Errorf("%s lacks %s", got, want)
		}
	}
	for target, want := range map[string]string{
		"other/writer": `scripts.other/writer: "other" is no workflow this one runs as a child (children: child)`,
		"child/critic": `scripts.child/critic: workflow "child" declares no agent configuration critic (known: editor, lead, writer)`,
		"child/lead":   `scripts.child/lead: this workflow declares lead too, and its script reaches the child by inheritance: script lead`,
	} {
		c := Case{Name: "c", Scripts: map[string]json.RawMessage{target: json.RawMessage(`{"turns":[]}`)}}
		if _, err := c.RunOverrides(t.TempDir(), declared); err == nil || err.Error() != want {
			t.Errorf("%s: got %v, want %s", target, err, want)
		}
	}
	c = Case{Name: "c", Scripts: map[string]json.RawMessage{"child/writer": json.RawMessage(`{"turns":[]}`), "writer": json.RawMessage(`{"turns":[]}`)}}
	if _, err := c.RunOverrides(t.TempDir(), declared); err == nil || !strings.Contains(err.Error(), "scripts writer already") {
		t.Errorf("twice: %v", err)
	}
}

// The worktrees a run created are those whose acquire created the
// checkout, each once; the branch only when the acquire made it.
func TestCreatedWorktrees(t *testing.T) {
	dir := t.TempDir()
	line := func(agent, name string, created, branchNew bool) string {
		return fmt.Sprintf(`{"v":1,"type":"worktree.acquired","timestamp":"2026-12-06T07:54:27Z","executionId":"x","agentId":"x/%s","details":{"name":%q,"path":"/r/.stratos/worktrees/%s","branch":"stratos/%s","repository":"/r","created":%t,"reused":%t,"branchNew":%t,"protected":false,"warnings":[]}}`,
			agent, name, name, name, created, !created, branchNew)
	}
	write(t, dir, "events.jsonl", strings.Join([]string{
		line("agent-1", "scratch", true, true), line("agent-2", "scratch", true, true),
		line("agent-3", "mine", false, false), line("agent-4", "old-branch", true, false),
	}, "\n")+"\n")
	got, err := CreatedWorktrees(filepath.Join(dir, "events.jsonl"))
	want := []Worktree{{Name: "scratch", Repository: "/r", Branch: "stratos/scratch"}, {Name: "old-branch", Repository: "/r"}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, %v; want %+v", got, err, want)
	}
}

// An agent that started a session on a harness other than test fails a
// case that does not allow real harnesses.
func TestRealHarnessFailures(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "events.jsonl", `{"v":1,"type":"agent.invocation.started","timestamp":"2026-12-06T07:54:27Z","executionId":"x/c","agentId":"x/c/agent-1","details":{"name":"writer","promptKind":"text","configId":"writer"}}
{"v":1,"type":"agent.initialization.completed","timestamp":"2026-12-06T07:54:27Z","executionId":"x/c","agentId":"x/c/agent-1","details":{"status":"completed","harness":"codex"}}
{"v":1,"type":"agent.initialization.completed","timestamp":"2026-12-06T07:54:27Z","executionId":"x","agentId":"x/agent-2","details":{"status":"completed","harness":"test"}}
`)
	counts, err := Count(filepath.Join(dir, "events.jsonl"))
	if err != nil || !reflect.DeepEqual(counts.Harnesses, map[string]string{"writer": "codex"}) {
		t.Fatalf("got %v, %v", counts.Harnesses, err)
	}
	if got := (Case{}).RealHarnessFailures(counts); len(got) != 1 || !strings.Contains(got[0], "agent writer ran on the codex harness") {
		t.Errorf("got %q", got)
	}
	if got := (Case{AllowRealHarness: true}).RealHarnessFailures(counts); len(got) != 0 {
		t.Errorf("allowRealHarness: got %q", got)
	}
}

// An agent the host refused (unscripted_agent) fails the case, named by
// its agent name, with the host's message; other failed invocations do not.
func TestRefusedAgentsFailTheCase(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "events.jsonl", `{"v":1,"type":"agent.invocation.started","timestamp":"2026-12-06T07:54:27Z","executionId":"x/c","agentId":"x/c/agent-1","details":{"name":"agent #1","promptKind":"text"}}
{"v":1,"type":"agent.invocation.completed","timestamp":"2026-12-06T07:54:27Z","executionId":"x/c","agentId":"x/c/agent-1","details":{"status":"failed","error":{"code":"unscripted_agent","message":"agent \"agent #1\" of workflow \"c\" would run on a real harness (codex)"}}}
{"v":1,"type":"agent.invocation.started","timestamp":"2026-12-06T07:54:27Z","executionId":"x","agentId":"x/agent-2","details":{"name":"critic","promptKind":"text","configId":"critic"}}
{"v":1,"type":"agent.invocation.completed","timestamp":"2026-12-06T07:54:27Z","executionId":"x","agentId":"x/agent-2","details":{"status":"failed","error":{"code":"execution","message":"boom"}}}
`)
	counts, err := Count(filepath.Join(dir, "events.jsonl"))
	want := map[string]string{"agent #1": `agent "agent #1" of workflow "c" would run on a real harness (codex)`}
	if err != nil || !reflect.DeepEqual(counts.Refused, want) {
		t.Fatalf("got %v, %v", counts.Refused, err)
	}
	got := (Case{}).RealHarnessFailures(counts)
	if len(got) != 1 || !strings.Contains(got[0], `agent agent #1 was refused rather than run on a real harness: agent "agent #1" of workflow "c"`) {
		t.Errorf("got %q", got)
	}
}

// A run record's worktree warnings are its acquires' and its releases'
// but worktree_dirty (the case's own changes, removed with the worktree).
func TestWorktreeWarnings(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "events.jsonl", `{"v":1,"type":"worktree.acquired","timestamp":"2026-12-06T07:54:27Z","executionId":"x","agentId":"x/agent-1","details":{"name":"scratch","path":"/r/.stratos/worktrees/scratch","branch":"stratos/scratch","repository":"/r","created":true,"reused":false,"branchNew":true,"protected":false,"warnings":[{"code":"origin_head_unavailable","message":"no origin"}]}}
{"v":1,"type":"worktree.released","timestamp":"2026-12-06T07:54:28Z","executionId":"x","details":{"status":"released","agents":["x/agent-1"],"repository":"/r","name":"scratch","path":"/r/.stratos/worktrees/scratch","outcome":"kept","warnings":[{"code":"worktree_dirty","message":"changes"},{"code":"lock_timeout","message":"locked"}]}}
`)
	got, err := WorktreeWarnings(filepath.Join(dir, "events.jsonl"))
	var codes []string
	for _, d := range got {
		codes = append(codes, d.Code)
	}
	if err != nil || !reflect.DeepEqual(codes, []string{"origin_head_unavailable", "lock_timeout"}) {
		t.Errorf("got %v, %v", codes, err)
	}
}

// Explaining a mistyped field walks only the values that hold it: an input
// nested thousands deep before it (json.Marshal sorts input before name)
// took seconds per level of nesting walked again, 16 s for this file of
// 18 KB.
func TestLoadExplainsBesideADeepValueAtOnce(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "tests/c.yaml", "cases:\n  - input: "+strings.Repeat("[", 9000)+strings.Repeat("]", 9000)+"\n    name: [x]\n")
	start := time.Now()
	_, err := Load(dir)
	if err == nil || !strings.Contains(err.Error(), `name: must be a string, got ["x"]`) {
		t.Fatalf("got %v", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the error took %v", took)
	}
}
