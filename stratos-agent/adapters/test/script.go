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
	"os"
	"path/filepath"
	"sort"

	"gopkg.in/yaml.v3"

	"github.com/stratoscli/stratos/shared/agentproto"
)

// Script is the test harness configuration of one agent (its `test` field).
type Script struct {
	// Initialize lists initialization attempts in order; once the list is
	// used up, initialization succeeds.
	Initialize []Attempt `json:"initialize,omitempty"`
	// Turns lists the replies, one per execute, in order.
	Turns []Turn `json:"turns"`
	// Repeat starts over at the first turn after the last one; otherwise an
	// execute beyond the last turn fails.
	Repeat bool `json:"repeat,omitempty"`
}

// Attempt is one scripted initialization attempt.
type Attempt struct {
	// Fail: "initialization", "authentication" or "model_unavailable";
	// empty succeeds.
	Fail    string `json:"fail,omitempty"`
	Message string `json:"message,omitempty"`
	DelayMs int    `json:"delayMs,omitempty"`
}

// Turn is the scripted reaction to one execute.
type Turn struct {
	Expect *Expect `json:"expect,omitempty"`
	// DelayMs waits after the tool calls, before the reply (cancellable).
	DelayMs   int        `json:"delayMs,omitempty"`
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`
	// Files are written after the tool calls, as an agent editing its
	// checkout would: path (relative to the agent's working directory, the
	// worktree when it has one) → content.
	Files map[string]string `json:"files,omitempty"`
	// Reply is the text reply, a Handlebars template (see replyContext).
	Reply *string `json:"reply,omitempty"`
	// Value is the structured reply, for agents with an outputSchema.
	Value json.RawMessage `json:"value,omitempty"`
	// Fail: "execution", "authentication" or "model_unavailable".
	Fail    string `json:"fail,omitempty"`
	Message string `json:"message,omitempty"`
	// Usage is reported for the turn (a usage event), as a real harness
	// reports each turn's tokens; absent, the turn reports none.
	Usage *Usage `json:"usage,omitempty"`
}

// Usage is one turn's scripted token usage; CostUSD absent means the
// harness reports no cost.
type Usage struct {
	InputTokens              int      `json:"inputTokens,omitempty"`
	OutputTokens             int      `json:"outputTokens,omitempty"`
	CacheReadInputTokens     int      `json:"cacheReadInputTokens,omitempty"`
	CacheCreationInputTokens int      `json:"cacheCreationInputTokens,omitempty"`
	ReasoningOutputTokens    int      `json:"reasoningOutputTokens,omitempty"`
	CostUSD                  *float64 `json:"costUsd,omitempty"`
}

// details are the usage event's details, named as the other adapters name them.
func (u *Usage) details() map[string]any {
	d := map[string]any{"inputTokens": u.InputTokens, "outputTokens": u.OutputTokens,
		"cacheReadInputTokens": u.CacheReadInputTokens, "cacheCreationInputTokens": u.CacheCreationInputTokens,
		"reasoningOutputTokens": u.ReasoningOutputTokens}
	if u.CostUSD != nil {
		d["costUsd"] = *u.CostUSD
	}
	return d
}

// Expect checks the prompt the turn receives; a mismatch fails the execute.
type Expect struct {
	Prompt               *string `json:"prompt,omitempty"`
	PromptContains       string  `json:"promptContains,omitempty"`
	SystemPromptContains string  `json:"systemPromptContains,omitempty"`
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
	where := "test"
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
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, agentproto.Errorf(agentproto.CodeConfiguration, "test script: %v (paths resolve against the workflow directory %s)", err, dir)
		}
		var doc any
		if err := yaml.Unmarshal(b, &doc); err != nil {
			return nil, agentproto.Errorf(agentproto.CodeConfiguration, "test script %s: %v", path, err)
		}
		if raw, err = json.Marshal(doc); err != nil {
			return nil, agentproto.Errorf(agentproto.CodeConfiguration, "test script %s: %v", path, err)
		}
		where = path
	}
	var s Script
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, agentproto.Errorf(agentproto.CodeConfiguration, "test script %s: %v", where, err)
	}
	if err := s.check(); err != nil {
		return nil, agentproto.Errorf(agentproto.CodeConfiguration, "test script %s: %v", where, err)
	}
	return &s, nil
}

func (s *Script) check() error {
	for i, a := range s.Initialize {
		if _, ok := initFailures[a.Fail]; a.Fail != "" && !ok {
			return fmt.Errorf("initialize[%d].fail %q: must be initialization, authentication or model_unavailable", i, a.Fail)
		}
	}
	for i, t := range s.Turns {
		if _, ok := turnFailures[t.Fail]; t.Fail != "" && !ok {
			return fmt.Errorf("turns[%d].fail %q: must be execution, authentication or model_unavailable", i, t.Fail)
		}
		if t.Reply != nil && len(t.Value) > 0 {
			return fmt.Errorf("turns[%d]: give reply or value, not both", i)
		}
		for _, path := range sortedPaths(t.Files) {
			if !filepath.IsLocal(path) {
				return fmt.Errorf("turns[%d].files: %q must be a relative path inside the working directory", i, path)
			}
		}
		for j, c := range t.ToolCalls {
			if c.Tool == "" {
				return fmt.Errorf("turns[%d].toolCalls[%d].tool: required", i, j)
			}
			if len(c.Output) > 0 && c.Error != "" {
				return fmt.Errorf("turns[%d].toolCalls[%d]: give output or error, not both", i, j)
			}
		}
	}
	return nil
}

func sortedPaths(files map[string]string) []string {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths
}
