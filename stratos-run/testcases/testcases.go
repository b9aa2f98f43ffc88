// Package testcases reads a workflow's test cases (<workflow>/tests/*.yaml)
// and judges a run against a case's expectations. Running the cases is the
// command's job; this package knows the file format and the matching rules
// (docs/testing.md).
package testcases

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"

	"github.com/stratoscli/stratos/shared/contract/runapi"
)

// MaxFileBytes bounds a case file and each file a case names (overrides,
// scripts): a case holds a run's input, which --input allows up to 16 MiB
// (docs/files.md).
const MaxFileBytes = 16 << 20

// Dir is the directory of a workflow's test case files; harness scripts the
// cases use belong in a subdirectory (tests/scripts/), which is not read as
// cases.
const Dir = "tests"

// Case is one test case: a full run of the workflow.
type Case struct {
	Name string `json:"name"`
	// Input is the workflow's input ({} when absent).
	Input json.RawMessage `json:"input,omitempty"`
	// Overrides are invocation overrides, inline or {"file": path} (YAML
	// or JSON, relative to the workflow directory).
	Overrides json.RawMessage `json:"overrides,omitempty"`
	// Scripts puts agent configurations (configId or configId#label) on the
	// test harness with these scripts (inline, or {"file": path} relative
	// to the workflow directory).
	Scripts map[string]json.RawMessage `json:"scripts,omitempty"`
	// Budget limits the case's run, over workflow.yaml's budget (as
	// --budget-usd and --budget-tokens do for stratos run).
	Budget *Budget `json:"budget,omitempty"`
	// AllowRealHarness lets the configurations the case does not script
	// run on their own harness; without it an execute of one fails the
	// case instead of spending tokens.
	AllowRealHarness bool `json:"allowRealHarness,omitempty"`
	// Decisions answer the run's decisions by prompt match instead of a
	// model (see decisions.go), inline or {"file": path}.
	Decisions json.RawMessage `json:"decisions,omitempty"`
	Expect    Expect          `json:"expect"`

	// File is the case file, relative to the workflow directory; Line is
	// the case's line in it.
	File string `json:"-"`
	Line int    `json:"-"`
	// scriptLines are the lines of the scripts entries, by target.
	scriptLines map[string]int
	// decisionsLine is the line of the decisions field (0 without one).
	decisionsLine int
}

// Budget is a case's limits; a field left out keeps workflow.yaml's.
type Budget struct {
	USD    *float64 `json:"usd,omitempty"`
	Tokens *int64   `json:"tokens,omitempty"`
}

// check refuses a limit that limits nothing: zero, negative or infinite
// (leave the field out for workflow.yaml's limit).
func (b *Budget) check() error {
	if b == nil {
		return nil
	}
	if b.USD != nil && !(*b.USD > 0 && !math.IsInf(*b.USD, 0)) {
		return fmt.Errorf("budget.usd %v: must be a positive number of US dollars", *b.USD)
	}
	if b.Tokens != nil && *b.Tokens <= 0 {
		return fmt.Errorf("budget.tokens %d: must be a positive whole number", *b.Tokens)
	}
	return nil
}

// check refuses expectations no run can meet, which running the case would
// only report once it ran: a negative count of calls, a {"$contains": text}
// matcher the judge cannot apply.
func (e Expect) check() error {
	for _, target := range slices.Sorted(maps.Keys(e.Calls)) {
		if n := e.Calls[target]; n < 0 {
			return fmt.Errorf("expect.calls.%s: %d is not a number of calls (0 or more)", target, n)
		}
	}
	if len(e.OutputIncludes) > 0 {
		return checkMatchers("expect.outputIncludes", decode(e.OutputIncludes))
	}
	return nil
}

// checkMatchers refuses a {"$contains": …} object of outputIncludes that
// is not the matcher (a string, the object's only field) anywhere in want.
func checkMatchers(path string, want any) error {
	switch w := want.(type) {
	case map[string]any:
		if sub, ok := w[containsKey]; ok {
			if _, text := sub.(string); !text || len(w) != 1 {
				return fmt.Errorf("%s: %s must be the only field of its object and a string, got %s", path, containsKey, show(w))
			}
			return nil
		}
		for _, k := range slices.Sorted(maps.Keys(w)) {
			if err := checkMatchers(path+"."+k, w[k]); err != nil {
				return err
			}
		}
	case []any:
		for i, v := range w {
			if err := checkMatchers(fmt.Sprintf("%s[%d]", path, i), v); err != nil {
				return err
			}
		}
	}
	return nil
}

// Expect is what a case must observe; absent fields are not checked. A case
// without error expects the run to succeed.
type Expect struct {
	// Output must equal the workflow's output exactly.
	Output json.RawMessage `json:"output,omitempty"`
	// OutputIncludes must be included in the output: objects by the fields
	// given, arrays element by element (same length), {"$contains": text}
	// by a string containing text, other values by equality.
	OutputIncludes json.RawMessage `json:"outputIncludes,omitempty"`
	// Error is the code the run must fail with (the error's own, or one of
	// its causes').
	Error string `json:"error,omitempty"`
	// Calls are the calls agents' harnesses answered (executes and their
	// structured-output retries, see Counts) per configId, or per
	// configId#label, across the run (child workflows included).
	Calls map[string]int `json:"calls,omitempty"`
}

// Problem is a problem of the case, at its line.
func (c Case) Problem(format string, args ...any) runapi.TestCaseProblem {
	return runapi.TestCaseProblem{File: c.File, Line: c.Line, Case: c.Name, Message: fmt.Sprintf(format, args...)}
}

// ScriptProblem is a problem of one of the case's scripts entries, at the
// entry's line when the case gives it there.
func (c Case) ScriptProblem(target, message string) runapi.TestCaseProblem {
	target = c.scriptsKey(target)
	p := runapi.TestCaseProblem{File: c.File, Line: c.Line, Case: c.Name, Agent: target, Message: message}
	if l, ok := c.scriptLines[target]; ok {
		p.Line = l
	}
	// The run's overrides carry a script file's content, so the file is
	// named here.
	var ref struct {
		File string `json:"file"`
	}
	if json.Unmarshal(c.Scripts[target], &ref) == nil && ref.File != "" {
		p.Message = "script " + ref.File + ": " + p.Message
	}
	return p
}

// Error is a problem of a case file that stops it from loading.
type Error struct{ runapi.TestCaseProblem }

func (e *Error) Error() string { return e.String() }

// Unscripted is the name of the test-script case that stands in for an
// agent configuration a case does not script (see RunOverrides); the
// counts of a run show how often it served.
const Unscripted = "(not scripted)"

// RunOverrides is the --overrides document of the case's run: its
// overrides with each script's configuration switched to the test harness.
// Unless the case allows real harnesses, every configuration of declared
// (the workflow.yaml agents section) that neither the case nor the
// workflow puts on the test harness gets a script whose only case,
// Unscripted, fails its execute: a forgotten script fails the case instead
// of spending tokens. Files are read here, relative to the workflow
// directory dir, so that a script inherited by a child workflow means the
// same file.
func (c Case) RunOverrides(dir string, declared Declared) (json.RawMessage, error) {
	doc := map[string]any{}
	if len(c.Overrides) > 0 {
		raw, err := inlineOrFile(c.Overrides, dir)
		if err != nil {
			return nil, fmt.Errorf("overrides: %w", err)
		}
		if err := json.Unmarshal(raw, &doc); err != nil || doc == nil {
			return nil, fmt.Errorf("overrides: must be an object with agents and decision")
		}
	}
	agents, err := overrideAgents(doc)
	if err != nil {
		return nil, err
	}
	scriptedBy := map[string]string{} // overrides key → scripts target
	for _, target := range slices.Sorted(maps.Keys(c.Scripts)) {
		key, err := declared.overrideKey(target)
		if err != nil {
			return nil, err
		}
		if other, twice := scriptedBy[key]; twice {
			return nil, fmt.Errorf("scripts.%s: scripts.%s scripts %s already (a child's agents are scripted through the configuration of their name)", target, other, key)
		}
		scriptedBy[key] = target
		script, err := inlineOrFile(c.Scripts[target], dir)
		if err != nil {
			return nil, fmt.Errorf("scripts.%s: %w", target, err)
		}
		setScript(agents, key, script)
	}
	if !c.AllowRealHarness {
		all := declared.All()
		for _, id := range slices.Sorted(maps.Keys(all)) {
			if onTestHarness(agents[id]) || onTestHarness(all[id]) {
				continue
			}
			setScript(agents, id, unscriptedScript(id))
		}
	}
	if len(agents) > 0 {
		doc["agents"] = agents
	}
	if err := c.setDecisions(doc, dir); err != nil {
		return nil, err
	}
	return json.Marshal(doc)
}

// overrideAgents is the overrides' agents object, each entry an object of
// settings. Anything else is refused: dropped, the case's overrides would
// be silently ignored; passed on, the run would fail on them instead of
// the case file naming its own field.
func overrideAgents(doc map[string]any) (map[string]any, error) {
	v, given := doc["agents"]
	if !given {
		return map[string]any{}, nil
	}
	agents, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("overrides.agents: must be an object of agent settings by configuration, not %s", show(v))
	}
	for _, name := range slices.Sorted(maps.Keys(agents)) {
		if _, ok := agents[name].(map[string]any); !ok {
			return nil, fmt.Errorf("overrides.agents.%s: must be an object of agent settings, not %s", name, show(agents[name]))
		}
	}
	return agents, nil
}

// setScript puts the target's overrides entry on the test harness with
// script, over the entry's other fields.
func setScript(agents map[string]any, target string, script any) {
	entry, _ := agents[target].(map[string]any)
	if entry == nil {
		entry = map[string]any{}
	}
	entry["harness"], entry["test"] = "test", script
	agents[target] = entry
}

// onTestHarness reports whether an agent configuration (or overrides
// entry) names the test harness.
func onTestHarness(config any) bool {
	m, _ := config.(map[string]any)
	return m["harness"] == "test"
}

// unscriptedScript fails every execute of the configuration id with a
// message that says how to script it. It is the same for every case, so
// that checking the cases checks it once.
func unscriptedScript(id string) map[string]any {
	msg := fmt.Sprintf("the test case does not script agent configuration %s: give it a script under scripts, "+
		"or set allowRealHarness: true to let it run on its own harness", id)
	return map[string]any{"cases": []any{map[string]any{"name": Unscripted, "fail": "execution", "message": msg}}}
}

// inlineOrFile returns raw, or the content of the file {"file": path} names.
func inlineOrFile(raw json.RawMessage, dir string) (json.RawMessage, error) {
	var ref map[string]any
	if json.Unmarshal(raw, &ref) != nil || len(ref) != 1 {
		return raw, nil
	}
	file, given := ref["file"]
	if !given {
		return raw, nil
	}
	// No script, overrides or decisions is an object of "file" alone: one
	// whose file is not a path is a mistyped reference, which passed on as
	// inline content was refused for its unknown field "file".
	path, ok := file.(string)
	if !ok || path == "" {
		return nil, fmt.Errorf("file: must be the path of a YAML or JSON file, relative to the workflow directory, got %s", show(file))
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	return yamlToJSON(path)
}
