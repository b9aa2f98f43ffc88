// Package test is the `test` harness: a full adapter that replays a
// script instead of calling a model, so workflows can be tested
// deterministically and without credentials. The script gives, per execute,
// a text reply (a Handlebars template over the conversation so far) or a
// structured value, simulated tool calls that pass through the author's
// hooks, simulated failures and delays. docs/harness-test.md documents the format.
package test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/boundedread"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/yamlline"
)

// MaxScriptFileBytes bounds a script file ({"file": path}): replies and
// values for a test, kilobytes in practice; --overrides, which can carry a
// script inline, has the same limit (docs/files.md). Only a regular file
// is read: a FIFO would block the agent's start.
const MaxScriptFileBytes = 4 << 20

// describe names the script in errors.
func (s *Script) describe() string {
	if s.origin == "" {
		return "inline script"
	}
	return "script " + s.origin
}

// Script is the test harness configuration of one agent (its `test` field).
// It gives turns (replayed per agent object, in order) or cases (chosen per
// call, across every agent object of the configuration), not both.
type Script struct {
	// Initialize lists initialization attempts in order; once the list is
	// used up, initialization succeeds.
	Initialize []Attempt `json:"initialize,omitempty"`
	// Turns lists the replies, one per execute, in order.
	Turns []Turn `json:"turns,omitempty"`
	// Repeat starts over at the first turn after the last one; otherwise an
	// execute beyond the last turn fails.
	Repeat bool `json:"repeat,omitempty"`
	// Cases are chosen per call: the first whose `when` holds serves it.
	Cases []Case `json:"cases,omitempty"`

	// origin is the script's file as the configuration names it; empty
	// for an inline script.
	origin string
}

// Attempt is one scripted initialization attempt.
type Attempt struct {
	// Fail: "initialization", "authentication" or "model_unavailable";
	// empty succeeds.
	Fail    string `json:"fail,omitempty"`
	Message string `json:"message,omitempty"`
	DelayMs int    `json:"delayMs,omitempty"`
}

// Turn is the scripted reaction to one execute of the turn form.
type Turn struct {
	Expect *Expect `json:"expect,omitempty"`
	Reaction
}

// Case is one per-call entry of the case form: it serves the calls that
// When selects (every call when When is absent: the default case).
type Case struct {
	// Name names the case in errors, events and counts; default "cases[i]".
	Name string `json:"name,omitempty"`
	When *When  `json:"when,omitempty"`
	// Expect checks a call the case was chosen for; a mismatch fails it.
	Expect *Expect `json:"expect,omitempty"`
	Reaction
}

// Reaction is what the simulated model does for one call.
type Reaction struct {
	// DelayMs waits after the tool calls, before the reply (cancellable).
	DelayMs   int        `json:"delayMs,omitempty"`
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`
	// Files are written after the tool calls, as an agent editing its
	// checkout would: path (relative to the agent's working directory, the
	// worktree when it has one) → content.
	Files map[string]string `json:"files,omitempty"`
	// Reply is the text reply, a Handlebars template (see replyContext).
	Reply *string `json:"reply,omitempty"`
	// Value is the structured reply, for agents with an outputSchema; every
	// string in it is a template over the reply context.
	Value json.RawMessage `json:"value,omitempty"`
	// ValueJSON is a template whose rendering is the structured reply's JSON
	// text, for values whose non-string fields come from the prompt.
	ValueJSON *string `json:"valueJSON,omitempty"`
	// Fail: "execution", "authentication" or "model_unavailable".
	Fail    string `json:"fail,omitempty"`
	Message string `json:"message,omitempty"`
	// Usage is reported for the turn (a usage event), as a real harness
	// reports each turn's tokens; absent, the turn reports none.
	Usage *Usage `json:"usage,omitempty"`
}

// Usage is one turn's scripted token usage; CostUSD absent means the
// harness reports no cost. The test harness has no backend: Provider and
// Model are reported only when the script names them, to stand for a
// harness that reports the backend it used.
type Usage struct {
	InputTokens              int      `json:"inputTokens,omitempty"`
	OutputTokens             int      `json:"outputTokens,omitempty"`
	CacheReadInputTokens     int      `json:"cacheReadInputTokens,omitempty"`
	CacheCreationInputTokens int      `json:"cacheCreationInputTokens,omitempty"`
	ReasoningOutputTokens    int      `json:"reasoningOutputTokens,omitempty"`
	CostUSD                  *float64 `json:"costUsd,omitempty"`
	Provider                 string   `json:"provider,omitempty"`
	Model                    string   `json:"model,omitempty"`
}

// event is the usage event the turn reports; a scripted cost is one the
// harness reported.
func (u *Usage) event() *eventapi.Usage {
	d := &eventapi.Usage{Tokens: eventapi.Tokens{InputTokens: int64(u.InputTokens), OutputTokens: int64(u.OutputTokens),
		CacheReadInputTokens: int64(u.CacheReadInputTokens), CacheCreationInputTokens: int64(u.CacheCreationInputTokens),
		ReasoningOutputTokens: int64(u.ReasoningOutputTokens)}, Provider: u.Provider, Model: u.Model}
	if u.CostUSD != nil {
		d.CostUSD, d.CostProvenance = u.CostUSD, eventapi.CostReported
	}
	return d
}

// Expect checks the prompt a call receives; a mismatch fails the execute.
type Expect struct {
	Prompt               *string `json:"prompt,omitempty"`
	PromptContains       string  `json:"promptContains,omitempty"`
	PromptNotContains    string  `json:"promptNotContains,omitempty"`
	PromptMatches        string  `json:"promptMatches,omitempty"`
	SystemPromptContains string  `json:"systemPromptContains,omitempty"`

	re *regexp.Regexp // PromptMatches, compiled by check
}

// When selects the calls a case serves; every condition given must hold.
type When struct {
	PromptContains    string `json:"promptContains,omitempty"`
	PromptNotContains string `json:"promptNotContains,omitempty"`
	// PromptMatches is a regular expression (Go syntax); its first match's
	// groups are the reply context's captures, every match's its matches.
	PromptMatches string `json:"promptMatches,omitempty"`
	// Label is the agent's label (createAgent({label})).
	Label string `json:"label,omitempty"`
	// Call is the 1-based index of the call across every agent object of
	// the configuration in this run.
	Call int `json:"call,omitempty"`

	re *regexp.Regexp // PromptMatches, compiled by check
}

// ToolCall is one simulated tool call.
type ToolCall struct {
	Tool  string          `json:"tool"`
	Input json.RawMessage `json:"input,omitempty"`
	// Output is what the tool returns (any JSON); Error makes it fail.
	Output json.RawMessage `json:"output,omitempty"`
	Error  string          `json:"error,omitempty"`
}

var (
	initFailures = map[string]string{"initialization": agentproto.CodeInitialization, "authentication": agentproto.CodeAuthentication, "model_unavailable": agentproto.CodeModelUnavailable}
	turnFailures = map[string]string{"execution": agentproto.CodeExecution, "authentication": agentproto.CodeAuthentication, "model_unavailable": agentproto.CodeModelUnavailable}
)

// LoadScript decodes raw (inline, or {"file": path} relative to dir; the
// file may be YAML or JSON) and checks it.
func LoadScript(raw json.RawMessage, dir string) (*Script, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, agentproto.Errorf(agentproto.CodeConfiguration,
			`harness "test" needs a script: set the agent's "test" field (inline, or {"file": path}); see docs/harness-test.md in the Stratos repository`)
	}
	where := "" // an inline script: the agent's name says where it is
	var ref struct {
		File string `json:"file"`
	}
	if json.Unmarshal(raw, &ref) == nil && ref.File != "" {
		var keys map[string]any
		_ = json.Unmarshal(raw, &keys)
		if len(keys) != 1 {
			return nil, agentproto.Errorf(agentproto.CodeConfiguration, `test: {"file": path} must have no other fields`)
		}
		path := ref.File
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		b, err := boundedread.RegularFile(path, MaxScriptFileBytes)
		if err != nil {
			return nil, agentproto.Errorf(agentproto.CodeConfiguration, "test script: %v (paths resolve against the workflow directory %s)", err, dir)
		}
		var doc any
		if err := yaml.Unmarshal(b, &doc); err != nil {
			return nil, agentproto.Errorf(agentproto.CodeConfiguration, "test script %s: %v", path, yamlline.Correct(err))
		}
		if raw, err = json.Marshal(doc); err != nil {
			return nil, agentproto.Errorf(agentproto.CodeConfiguration, "test script %s: %v", path, err)
		}
		where = " " + ref.File
	}
	var s Script
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, agentproto.Errorf(agentproto.CodeConfiguration, "test script%s: %v", where, err)
	}
	if err := s.check(); err != nil {
		return nil, agentproto.Errorf(agentproto.CodeConfiguration, "test script%s: %v", where, err)
	}
	s.origin = ref.File
	return &s, nil
}

func (s *Script) check() error {
	for i, a := range s.Initialize {
		if _, ok := initFailures[a.Fail]; a.Fail != "" && !ok {
			return fmt.Errorf("initialize[%d].fail %q: must be initialization, authentication or model_unavailable", i, a.Fail)
		}
	}
	if len(s.Turns) > 0 && len(s.Cases) > 0 {
		return fmt.Errorf("give turns (replayed per agent object) or cases (chosen per call), not both")
	}
	if s.Repeat && len(s.Cases) > 0 {
		return fmt.Errorf("repeat applies to turns; cases serve any number of calls")
	}
	for i, t := range s.Turns {
		where := fmt.Sprintf("turns[%d]", i)
		if err := t.Expect.check(where); err != nil {
			return err
		}
		if err := t.Reaction.check(where); err != nil {
			return err
		}
	}
	names := map[string]int{}
	for i := range s.Cases {
		c := &s.Cases[i]
		where := fmt.Sprintf("cases[%d]", i)
		if c.Name == "" {
			c.Name = where
		}
		if j, dup := names[c.Name]; dup {
			return fmt.Errorf("%s: name %q is also the name of cases[%d]", where, c.Name, j)
		}
		names[c.Name] = i
		if err := c.When.check(where); err != nil {
			return err
		}
		if err := c.Expect.check(where); err != nil {
			return err
		}
		if err := c.Reaction.check(where); err != nil {
			return err
		}
	}
	return nil
}

func (r *Reaction) check(where string) error {
	if _, ok := turnFailures[r.Fail]; r.Fail != "" && !ok {
		return fmt.Errorf("%s.fail %q: must be execution, authentication or model_unavailable", where, r.Fail)
	}
	replies := 0
	for _, given := range []bool{r.Reply != nil, len(r.Value) > 0, r.ValueJSON != nil} {
		if given {
			replies++
		}
	}
	if replies > 1 {
		return fmt.Errorf("%s: give reply or value, not both (valueJSON counts as a value)", where)
	}
	if r.DelayMs < 0 {
		return fmt.Errorf("%s.delayMs: must not be negative", where)
	}
	for _, path := range slices.Sorted(maps.Keys(r.Files)) {
		if !filepath.IsLocal(path) {
			return fmt.Errorf("%s.files: %q must be a relative path inside the working directory", where, path)
		}
	}
	for j, c := range r.ToolCalls {
		if c.Tool == "" {
			return fmt.Errorf("%s.toolCalls[%d].tool: required", where, j)
		}
		if len(c.Output) > 0 && c.Error != "" {
			return fmt.Errorf("%s.toolCalls[%d]: give output or error, not both", where, j)
		}
	}
	return nil
}

func (e *Expect) check(where string) error {
	if e == nil || e.PromptMatches == "" {
		return nil
	}
	re, err := regexp.Compile(e.PromptMatches)
	if err != nil {
		return fmt.Errorf("%s.expect.promptMatches: %v", where, err)
	}
	e.re = re
	return nil
}

func (w *When) check(where string) error {
	if w == nil {
		return nil
	}
	if w.Call < 0 {
		return fmt.Errorf("%s.when.call: calls count from 1", where)
	}
	if w.PromptMatches != "" {
		re, err := regexp.Compile(w.PromptMatches)
		if err != nil {
			return fmt.Errorf("%s.when.promptMatches: %v", where, err)
		}
		w.re = re
	}
	return nil
}
