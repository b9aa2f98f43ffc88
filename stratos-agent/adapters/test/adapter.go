package test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
	"github.com/stratoscli/stratos/stratos-agent/prompt"
)

// Harness is the harness name agents configure.
const Harness = "test"

// Capabilities are what the test harness supports: it replays a script,
// so tools are simulated (their output is scripted) and a structured value
// is scripted rather than produced by a model.
var Capabilities = adapter.Capabilities{
	Efforts:                  []string{"low", "medium", "high", "max"},
	ExecutesTools:            false,
	HooksModifyArguments:     true,
	AfterHookReplacesFailure: true,
	StructuredOutput:         adapter.StructuredOutputScripted,
	SelectsModels:            true,
	ChecksAuthentication:     true,
}

// Registration is the harness as the agent host registers it.
func Registration() adapter.Harness {
	return adapter.Harness{Name: Harness, New: New, Capabilities: Capabilities}
}

// Options configure NewFactory.
type Options struct {
	// Observe, when set, receives what the simulated model received in
	// each execute: the test harness's counterpart of a fake model
	// server's request log (the conformance suite reads it).
	Observe func(Observation)
}

// Observation is what the simulated model received in one execute, after
// the turn's tool calls.
type Observation struct {
	// Instructions are the system prompt and the worktree context, set
	// once per session.
	Instructions []string
	Prompt       string
	// History holds the earlier prompts and replies of the conversation.
	History []string
	// ToolResults are what the tool calls returned to the model.
	ToolResults []ToolResult
}

// ToolResult is one tool call's result as the model reads it.
type ToolResult struct {
	Content string
	IsError bool
}

// New is the test harness's adapter.Factory.
func New(spec adapter.Spec, onEvent func(adapter.Event), hooks adapter.Hooks) (adapter.Adapter, error) {
	return NewFactory(Options{})(spec, onEvent, hooks)
}

// NewFactory returns the test harness's adapter.Factory with opts.
func NewFactory(opts Options) adapter.Factory {
	return func(spec adapter.Spec, onEvent func(adapter.Event), hooks adapter.Hooks) (adapter.Adapter, error) {
		s, err := newSession(spec, onEvent, hooks)
		if err != nil {
			return nil, err
		}
		if opts.Observe != nil {
			s.observe = opts.Observe
		}
		return s, nil
	}
}

func newSession(spec adapter.Spec, onEvent func(adapter.Event), hooks adapter.Hooks) (*session, error) {
	if err := Capabilities.CheckEffort(Harness, spec); err != nil {
		return nil, err
	}
	script, err := LoadScript(spec.Test, spec.WorkflowDir)
	if err != nil {
		return nil, err
	}
	return &session{spec: spec, script: script, emit: onEvent, hooks: hooks, observe: func(Observation) {}}, nil
}

// session replays the script. Executes are sequential (the host enforces
// it); mu guards what Cancel and Close touch concurrently.
type session struct {
	spec   adapter.Spec
	script *Script
	emit   func(adapter.Event)
	hooks  adapter.Hooks
	// observe receives what the simulated model received.
	observe func(Observation)

	initAttempts int
	turns        int
	history      []map[string]any

	mu     sync.Mutex
	cancel context.CancelFunc
	closed bool
}

func (s *session) Initialize(ctx context.Context) error {
	n := s.initAttempts
	s.initAttempts++
	if n >= len(s.script.Initialize) {
		return nil
	}
	a := s.script.Initialize[n]
	if err := sleep(ctx, a.DelayMs); err != nil {
		return err
	}
	if a.Fail == "" {
		return nil
	}
	msg := a.Message
	if msg == "" {
		msg = fmt.Sprintf("scripted %s failure of initialization attempt %d", a.Fail, n+1)
	}
	return failure(initFailures[a.Fail], true, "harness test: "+msg, map[string]any{"harness": Harness, "attempt": n + 1})
}

func (s *session) Execute(ctx context.Context, text string) (adapter.Result, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return adapter.Result{}, agentproto.Errorf(agentproto.CodeExecution, "harness test: the session is closed")
	}
	s.cancel = cancel
	s.mu.Unlock()

	s.turns++
	turnNo := s.turns
	turn, err := s.turn(turnNo)
	if err != nil {
		return adapter.Result{}, err
	}
	s.event("model.started", map[string]any{"turn": turnNo})
	res, err := s.play(ctx, turnNo, turn, text)
	status := "completed"
	if err != nil {
		status = "failed"
		if agentproto.CodeOf(err) == agentproto.CodeCancelled {
			status = "cancelled"
		}
	}
	if turn.Usage != nil {
		s.event(adapter.EventUsage, turn.Usage.details())
	}
	s.event("model.completed", map[string]any{"turn": turnNo, "status": status})
	return res, err
}

func (s *session) turn(n int) (Turn, error) {
	if len(s.script.Turns) == 0 {
		return Turn{}, agentproto.Errorf(agentproto.CodeExecution, "harness test: the script has no turns")
	}
	i := n - 1
	if i >= len(s.script.Turns) {
		if !s.script.Repeat {
			return Turn{}, agentproto.Errorf(agentproto.CodeExecution,
				"harness test: the script has %d turns and this is execute #%d; add turns or set repeat: true", len(s.script.Turns), n)
		}
		i %= len(s.script.Turns)
	}
	return s.script.Turns[i], nil
}

func (s *session) play(ctx context.Context, turnNo int, t Turn, text string) (adapter.Result, error) {
	if err := s.expect(turnNo, t.Expect, text); err != nil {
		return adapter.Result{}, err
	}
	var calls []map[string]any
	for i, c := range t.ToolCalls {
		rec, err := s.tool(ctx, fmt.Sprintf("call-%d-%d", turnNo, i+1), c)
		if err != nil {
			return adapter.Result{}, err
		}
		calls = append(calls, rec)
	}
	s.observe(s.observation(text, calls))
	if err := s.writeFiles(turnNo, t.Files); err != nil {
		return adapter.Result{}, err
	}
	if err := sleep(ctx, t.DelayMs); err != nil {
		return adapter.Result{}, err
	}
	if t.Fail != "" {
		msg := t.Message
		if msg == "" {
			msg = fmt.Sprintf("scripted %s failure of execute #%d", t.Fail, turnNo)
		}
		// A model refusal before any tool call lets the selector try the
		// next candidate, as a real harness's refusal before any work does.
		return adapter.Result{}, failure(turnFailures[t.Fail], t.Fail == "model_unavailable" && len(t.ToolCalls) == 0, "harness test: "+msg, map[string]any{"harness": Harness, "turn": turnNo})
	}
	entry := map[string]any{"prompt": text, "tools": calls}
	var res adapter.Result
	if s.spec.OutputSchema != nil {
		if len(t.Value) == 0 {
			return res, agentproto.Errorf(agentproto.CodeStructuredOutput,
				"harness test: the agent has an outputSchema but turn %d of the script gives no value", turnNo)
		}
		res.Value = t.Value
		entry["reply"] = string(t.Value)
	} else {
		reply := ""
		if t.Reply != nil {
			out, err := prompt.RenderString(*t.Reply, s.replyContext(turnNo, text, calls))
			if err != nil {
				return res, agentproto.Errorf(agentproto.CodeExecution, "harness test: turn %d reply: %v", turnNo, err)
			}
			reply = out
		} else if len(t.Value) > 0 {
			return res, agentproto.Errorf(agentproto.CodeExecution, "harness test: turn %d gives a value but the agent has no outputSchema", turnNo)
		}
		res.Text = reply
		entry["reply"] = reply
		s.event("message.delta", map[string]any{"text": reply})
	}
	s.history = append(s.history, entry)
	return res, nil
}

// observation is what the simulated model received for text.
func (s *session) observation(text string, calls []map[string]any) Observation {
	o := Observation{Prompt: text}
	for _, part := range []string{s.spec.SystemPrompt, s.spec.HarnessContext} {
		if part != "" {
			o.Instructions = append(o.Instructions, part)
		}
	}
	for _, h := range s.history {
		o.History = append(o.History, fmt.Sprint(h["prompt"]), fmt.Sprint(h["reply"]))
	}
	for _, c := range calls {
		content := c["output"]
		if c["status"] == statusFailed {
			content = c["error"]
		}
		text, ok := content.(string)
		if !ok {
			b, _ := json.Marshal(content)
			text = string(b)
		}
		o.ToolResults = append(o.ToolResults, ToolResult{Content: text, IsError: c["status"] == statusFailed || c["status"] == statusDenied})
	}
	return o
}

// writeFiles writes the turn's files into the working directory.
func (s *session) writeFiles(turnNo int, files map[string]string) error {
	for _, rel := range sortedPaths(files) {
		path := filepath.Join(s.spec.WorkingDirectory, rel)
		err := os.MkdirAll(filepath.Dir(path), 0o755)
		if err == nil {
			err = os.WriteFile(path, []byte(files[rel]), 0o644)
		}
		if err != nil {
			return agentproto.Errorf(agentproto.CodeExecution, "harness test: turn %d: write %s: %v", turnNo, rel, err)
		}
	}
	return nil
}

func (s *session) expect(turnNo int, e *Expect, text string) error {
	if e == nil {
		return nil
	}
	fail := func(what, want, got string) error {
		return agentproto.Errorf(agentproto.CodeExecution, "harness test: turn %d expected the %s %q, got %q", turnNo, what, want, got).
			WithDetails(map[string]any{"turn": turnNo, "expected": want, "got": got})
	}
	switch {
	case e.Prompt != nil && *e.Prompt != text:
		return fail("prompt", *e.Prompt, text)
	case e.PromptContains != "" && !strings.Contains(text, e.PromptContains):
		return fail("prompt to contain", e.PromptContains, text)
	case e.SystemPromptContains != "" && !strings.Contains(s.spec.SystemPrompt, e.SystemPromptContains):
		return fail("system prompt to contain", e.SystemPromptContains, s.spec.SystemPrompt)
	}
	return nil
}

// replyContext is what a reply template sees.
func (s *session) replyContext(turnNo int, text string, calls []map[string]any) map[string]any {
	history := make([]any, len(s.history))
	for i, h := range s.history {
		history[i] = h
	}
	tools := make([]any, len(calls))
	for i, c := range calls {
		tools[i] = c
	}
	model := ""
	if len(s.spec.Models) > 0 {
		model = s.spec.Models[0]
	}
	return map[string]any{
		"prompt":           text,
		"turn":             turnNo,
		"history":          history,
		"tools":            tools,
		"systemPrompt":     s.spec.SystemPrompt,
		"agent":            s.spec.Name,
		"model":            model,
		"models":           strings.Join(s.spec.Models, ","),
		"provider":         s.spec.Provider,
		"effort":           s.spec.Effort,
		"workingDirectory": s.spec.WorkingDirectory,
		"harnessContext":   s.spec.HarnessContext,
		"allowedMcps":      strings.Join(s.spec.AllowedMcps, ","),
		"allowedTools":     joinOrUnset(s.spec.Tools.AllowedTools),
		"disallowedTools":  joinOrUnset(s.spec.Tools.DisallowedTools),
	}
}

func joinOrUnset(names []string) string {
	if names == nil {
		return "(default)"
	}
	return strings.Join(names, ",")
}

func (s *session) Cancel() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel != nil {
		s.cancel()
	}
}

func (s *session) Close(context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.cancel != nil {
		s.cancel()
	}
	return nil
}

func (s *session) event(typ string, details map[string]any) {
	s.emit(adapter.Event{Type: typ, Time: time.Now(), Details: details})
}

// failure is a scripted failure: a rejection for the codes that refuse a
// candidate (tryNext says whether the selector may go on), an agent error
// otherwise.
func failure(code string, tryNext bool, msg string, details map[string]any) error {
	switch code {
	case agentproto.CodeModelUnavailable, agentproto.CodeAuthentication, agentproto.CodeHarnessUnavailable:
		r := rejection.New(rejection.Reason(code), "%s", msg).WithDetails(details)
		if !tryNext {
			return r.Final()
		}
		return r
	}
	return agentproto.Errorf(code, "%s", msg).WithDetails(details)
}

// sleep waits ms milliseconds unless ctx ends first (then: cancelled).
func sleep(ctx context.Context, ms int) error {
	if ms > 0 {
		t := time.NewTimer(time.Duration(ms) * time.Millisecond)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
		}
	}
	if ctx.Err() != nil {
		return agentproto.Errorf(agentproto.CodeCancelled, "harness test: cancelled")
	}
	return nil
}

func decode(raw json.RawMessage) any {
	if len(raw) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	return v
}
