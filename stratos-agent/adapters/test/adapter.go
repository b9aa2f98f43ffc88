package test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
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
	ResumesSessions:          true,
}

// Registration is the test harness's registration
// (docs/design/harness-registration.md); each registration counts calls
// on its own. It has no built-in tools, no selection rules (agents name it
// explicitly) and no authentication.
func Registration() adapter.Harness {
	return adapter.Harness{Name: Harness, Title: "test", New: NewFactory(Options{}), Capabilities: Capabilities,
		Docs: adapter.Docs{Page: "harness-test.md"}}
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

// NewFactory returns the test harness's adapter.Factory with opts. The
// sessions one factory makes share their call counts: a host registers one
// factory per top-level execution, so `when.call` counts across every agent
// object of a configuration in the run.
func NewFactory(opts Options) adapter.Factory {
	calls := newLedger()
	templates := &prompt.Inline{}
	return func(spec adapter.Spec, onEvent func(adapter.Event), hooks adapter.Hooks) (adapter.Adapter, error) {
		s, err := newSession(spec, onEvent, hooks, calls, templates)
		if err != nil {
			return nil, err
		}
		if opts.Observe != nil {
			s.observe = opts.Observe
		}
		return s, nil
	}
}

func newSession(spec adapter.Spec, onEvent func(adapter.Event), hooks adapter.Hooks, calls *ledger, templates *prompt.Inline) (*session, error) {
	if err := Capabilities.CheckEffort(Harness, spec); err != nil {
		return nil, err
	}
	script, err := LoadScript(spec.Test, spec.WorkflowDir)
	if err != nil {
		return nil, err
	}
	s := &session{spec: spec, script: script, emit: onEvent, hooks: hooks, observe: func(Observation) {}, calls: calls, templates: templates}
	if err := s.restore(); err != nil {
		return nil, agentproto.Errorf(agentproto.CodeInitialization, "%v", err).Wrap(err)
	}
	return s, nil
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
	// calls counts calls across the sessions of one factory.
	calls *ledger
	// templates keeps the script's parsed templates, for the sessions of
	// one factory.
	templates *prompt.Inline

	initAttempts int
	turns        int
	history      []map[string]any
	// state is the session's log in its state directory (state.go).
	state *os.File

	mu     sync.Mutex
	cancel context.CancelFunc
	closed bool
}

var _ adapter.Adapter = (*session)(nil)

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
	historyBefore := len(s.history)
	st, err := s.step(turnNo, text)
	if err != nil {
		return adapter.Result{}, err
	}
	started := &eventapi.ModelStarted{Turn: turnNo}
	if st.c != nil {
		started.Case, started.Call = st.c.Name, st.call
	}
	s.event(started)
	res, err := s.play(ctx, st, text)
	status := "completed"
	if err != nil {
		status = "failed"
		if agentproto.CodeOf(err) == agentproto.CodeCancelled {
			status = "cancelled"
		}
	}
	if u := st.reaction.Usage; u != nil {
		s.event(u.event())
	}
	s.event(&eventapi.ModelCompleted{Turn: turnNo, Status: status})
	if serr := s.save(historyBefore); serr != nil && err == nil {
		err = agentproto.Errorf(agentproto.CodeExecution, "harness test: keep the session's state: %v", serr).Wrap(serr)
	}
	return res, err
}

// step is the scripted reaction chosen for one execute: a turn of the turn
// form, or a case of the case form with its captures.
type step struct {
	turnNo   int
	call     int   // the call's index across the configuration (cases)
	c        *Case // nil for the turn form
	expect   *Expect
	reaction Reaction
	captures map[string]any
	matches  []any
}

// name is how errors refer to the step.
func (st step) name() string {
	if st.c != nil {
		return fmt.Sprintf("case %q", st.c.Name)
	}
	return fmt.Sprintf("turn %d", st.turnNo)
}

// errorf is a failure of the script: it names the agent, the script and,
// when one was chosen, the turn or case.
func (s *session) errorf(code string, st *step, format string, args ...any) *agentproto.Error {
	where := fmt.Sprintf("harness test: agent %q (%s)", s.spec.Name, s.script.describe())
	if st != nil {
		where += ", " + st.name()
	}
	return agentproto.Errorf(code, "%s: %s", where, fmt.Sprintf(format, args...))
}

func (s *session) step(turnNo int, text string) (step, error) {
	if len(s.script.Cases) > 0 {
		return s.chooseCase(turnNo, text)
	}
	if len(s.script.Turns) == 0 {
		return step{}, s.errorf(agentproto.CodeExecution, nil, "the script has no turns or cases")
	}
	i := turnNo - 1
	if i >= len(s.script.Turns) {
		if !s.script.Repeat {
			return step{}, s.errorf(agentproto.CodeExecution, nil,
				"the script has %d turns and this is execute #%d; add turns or set repeat: true", len(s.script.Turns), turnNo)
		}
		i %= len(s.script.Turns)
	}
	t := s.script.Turns[i]
	return step{turnNo: turnNo, expect: t.Expect, reaction: t.Reaction}, nil
}

// chooseCase numbers the call across the configuration and picks its case.
func (s *session) chooseCase(turnNo int, text string) (step, error) {
	config := s.configKey()
	call := s.calls.nextCall(config)
	got, ok := s.script.choose(callInfo{prompt: text, label: s.spec.Label, call: call})
	if !ok {
		return step{}, s.errorf(agentproto.CodeExecution, nil,
			"no case serves call %d (label %q, prompt %q); cases: %s — add a case without `when` as the default", call, s.spec.Label, text, s.script.caseNames()).
			WithDetails(map[string]any{"call": call, "prompt": text})
	}
	served := s.calls.serve(config + "\x00" + got.c.Name)
	s.event(&eventapi.TestCase{Case: got.c.Name, Call: call, Served: served, Config: s.spec.ConfigID, Label: s.spec.Label, Script: s.script.describe()})
	return step{turnNo: turnNo, call: call, c: got.c, expect: got.c.Expect, reaction: got.c.Reaction, captures: got.captures, matches: got.matches}, nil
}

// configKey identifies the agent's configuration in this run: the same
// configId in two workflows are two configurations; an agent without one
// is its own.
func (s *session) configKey() string {
	if s.spec.ConfigID == "" {
		return "agent\x00" + s.spec.AgentID
	}
	return s.spec.WorkflowDir + "\x00" + s.spec.ConfigID
}

func (s *session) play(ctx context.Context, st step, text string) (adapter.Result, error) {
	if err := s.expect(st, text); err != nil {
		return adapter.Result{}, err
	}
	t := st.reaction
	var calls []map[string]any
	for i, c := range t.ToolCalls {
		rec, err := s.tool(ctx, fmt.Sprintf("call-%d-%d", st.turnNo, i+1), c)
		if err != nil {
			return adapter.Result{}, err
		}
		calls = append(calls, rec)
	}
	s.observe(s.observation(text, calls))
	if err := s.writeFiles(st, t.Files); err != nil {
		return adapter.Result{}, err
	}
	if err := sleep(ctx, t.DelayMs); err != nil {
		return adapter.Result{}, err
	}
	if t.Fail != "" {
		msg := t.Message
		if msg == "" {
			msg = fmt.Sprintf("scripted %s failure of execute #%d (%s)", t.Fail, st.turnNo, st.name())
		}
		// A model refusal before any tool call lets the selector try the
		// next candidate, as a real harness's refusal before any work does.
		details := map[string]any{"harness": Harness, "turn": st.turnNo}
		if st.c != nil {
			details["case"] = st.c.Name
		}
		return adapter.Result{}, failure(turnFailures[t.Fail], t.Fail == "model_unavailable" && len(t.ToolCalls) == 0, "harness test: "+msg, details)
	}
	rctx := s.replyContext(st, text, calls)
	entry := map[string]any{"prompt": text, "tools": calls}
	var res adapter.Result
	if s.spec.OutputSchema != nil {
		value, err := s.value(st, rctx)
		if err != nil {
			return res, err
		}
		res.Value = value
		entry["reply"] = string(value)
	} else {
		if len(t.Value) > 0 || t.ValueJSON != nil {
			return res, s.errorf(agentproto.CodeExecution, &st, "gives a value but the agent has no outputSchema")
		}
		reply := ""
		if t.Reply != nil {
			out, err := s.templates.Render(*t.Reply, rctx)
			if err != nil {
				return res, s.errorf(agentproto.CodeExecution, &st, "reply: %v", err)
			}
			reply = out
		}
		res.Text = reply
		entry["reply"] = reply
		s.event(&eventapi.MessageDelta{Kind: eventapi.DeltaText, Text: reply})
	}
	s.history = append(s.history, entry)
	return res, nil
}

// value renders the step's structured reply: every string of value is a
// template, valueJSON a template of the whole JSON text.
func (s *session) value(st step, rctx map[string]any) (json.RawMessage, error) {
	t := st.reaction
	switch {
	case t.ValueJSON != nil:
		out, err := s.templates.Render(*t.ValueJSON, rctx)
		if err != nil {
			return nil, s.errorf(agentproto.CodeExecution, &st, "valueJSON: %v", err)
		}
		if !json.Valid([]byte(out)) {
			return nil, s.errorf(agentproto.CodeStructuredOutput, &st, "valueJSON rendered %q, which is not JSON", out)
		}
		return json.RawMessage(out), nil
	case len(t.Value) > 0:
		out, err := renderValue(s.templates, t.Value, rctx)
		if err != nil {
			return nil, s.errorf(agentproto.CodeExecution, &st, "value: %v", err)
		}
		return out, nil
	}
	return nil, s.errorf(agentproto.CodeStructuredOutput, &st, "the agent has an outputSchema but the script gives no value")
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
func (s *session) writeFiles(st step, files map[string]string) error {
	for _, rel := range slices.Sorted(maps.Keys(files)) {
		path := filepath.Join(s.spec.WorkingDirectory, rel)
		err := os.MkdirAll(filepath.Dir(path), 0o755)
		if err == nil {
			err = os.WriteFile(path, []byte(files[rel]), 0o644)
		}
		if err != nil {
			return s.errorf(agentproto.CodeExecution, &st, "write %s: %v", rel, err)
		}
	}
	return nil
}

func (s *session) expect(st step, text string) error {
	e := st.expect
	if e == nil {
		return nil
	}
	fail := func(what, want, got string) error {
		details := map[string]any{"turn": st.turnNo, "expected": want, "got": got}
		if st.c != nil {
			details["case"] = st.c.Name
		}
		return s.errorf(agentproto.CodeExecution, &st, "expected the %s %q, got %q", what, want, got).WithDetails(details)
	}
	switch {
	case e.Prompt != nil && *e.Prompt != text:
		return fail("prompt", *e.Prompt, text)
	case e.PromptContains != "" && !strings.Contains(text, e.PromptContains):
		return fail("prompt to contain", e.PromptContains, text)
	case e.PromptNotContains != "" && strings.Contains(text, e.PromptNotContains):
		return fail("prompt not to contain", e.PromptNotContains, text)
	case e.re != nil && !e.re.MatchString(text):
		return fail("prompt to match", e.PromptMatches, text)
	case e.SystemPromptContains != "" && !strings.Contains(s.spec.SystemPrompt, e.SystemPromptContains):
		return fail("system prompt to contain", e.SystemPromptContains, s.spec.SystemPrompt)
	}
	return nil
}

// replyContext is what a reply template sees.
func (s *session) replyContext(st step, text string, calls []map[string]any) map[string]any {
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
		"turn":             st.turnNo,
		"call":             st.call,
		"case":             caseName(st),
		"captures":         st.captures,
		"matches":          st.matches,
		"label":            s.spec.Label,
		"configId":         s.spec.ConfigID,
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

func caseName(st step) string {
	if st.c == nil {
		return ""
	}
	return st.c.Name
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
	s.closeState()
	return nil
}

func (s *session) event(d eventapi.Details) {
	s.emit(adapter.NewEvent(eventapi.IDs{}, d))
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
