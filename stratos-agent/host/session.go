package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// closeWait bounds how long closing an agent waits for its cancelled call
// to return before releasing the harness anyway.
const closeWait = 10 * time.Second

// session is one agent object: its fixed configuration once prepared, its
// harness session once initialized, and at most one call at a time.
type session struct {
	h           *Host
	id          string
	name        string
	label       string
	executionID string

	mu          sync.Mutex
	pr          *prepared // nil until the configuration resolved
	initialized bool
	calls       int
	busy        bool
	cancel      context.CancelCauseFunc // of the running call
	done        chan struct{}           // closed when the running call returns
	closed      bool
	invocation  string // ID of the running call, for events
	// tasks are the background work the harness reported started and not
	// yet ended: the ID of the invocation that started each, by task ID.
	tasks map[string]string
	// call is the SDK's number of the running call; cancelledUpTo the
	// highest call number a cancel named (calls are numbered in order).
	call          int
	cancelledUpTo int
	// usage sums the usage events of the running call.
	usage *agentproto.CallUsage
	// cont is the conversation the first execute asked to continue;
	// transcript its framed exchange, for a harness that cannot continue
	// it, until the first prompt carried it (transcript.go).
	cont       *agentproto.Continuation
	transcript string
	// native is the harness's own session ID its events last named;
	// stateDirs the state directory of each harness opened (continuation.go).
	native    string
	stateDirs map[string]string
	// lostState says why the conversation cont names cannot go on: its
	// state directory is gone (continuation.go).
	lostState string
	// worktree is the name of the managed worktree the agent works in.
	worktree string
	// phases is the workflow code's phase each invocation was started in,
	// by invocation ID (only those started in one): an event carries the
	// phase of the invocation it belongs to, background work's included.
	phases map[string]string
}

// continuation is the conversation the session was asked to continue.
func (s *session) continuation() *agentproto.Continuation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cont
}

func (s *session) noteStateDir(harness, dir string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stateDirs == nil {
		s.stateDirs = map[string]string{}
	}
	s.stateDirs[harness] = dir
}

// sessionRef is the conversation the session runs in on harness.
func (s *session) sessionRef(harness string) *agentproto.SessionRef {
	s.mu.Lock()
	defer s.mu.Unlock()
	return &agentproto.SessionRef{Harness: harness, ID: s.native, State: s.stateDirs[harness], Worktree: s.worktree}
}

var (
	errCancelled = errors.New("cancel() was called")
	errClosed    = errors.New("the owning workflow execution ended")
)

func (h *Host) execute(ctx context.Context, p agentproto.ExecuteParams) (*agentproto.ExecuteResult, error) {
	if p.AgentID == "" || p.ExecutionID == "" {
		return nil, agentproto.Errorf(agentproto.CodeProtocol, "agent.execute: agentId and executionId are required")
	}
	h.mu.Lock()
	if h.closedExecs[p.ExecutionID] {
		h.mu.Unlock()
		return nil, contextClosed(p.Name)
	}
	h.mu.Unlock()
	s := h.sessionFor(p.AgentID)
	s.mu.Lock()
	if s.executionID == "" {
		s.name, s.label, s.executionID = p.Name, p.Label, p.ExecutionID
	}
	s.mu.Unlock()
	return s.execute(ctx, p)
}

func contextClosed(name string) error {
	return agentproto.Errorf(agentproto.CodeContextClosed, "agent %q cannot execute: its workflow execution has ended", name)
}

// execute runs one call: concurrency check, configuration (first time),
// prompt, admission, initialization (until it succeeds), onStart, the
// harness, output validation.
func (s *session) execute(ctx context.Context, p agentproto.ExecuteParams) (*agentproto.ExecuteResult, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, contextClosed(s.name)
	}
	if s.busy {
		s.mu.Unlock()
		return nil, agentproto.Errorf(agentproto.CodeConcurrentUse,
			"Concurrent execute calls cannot use the same agent object (agent %q). Update the workflow script to execute this agent sequentially, or create separate agents for parallel execution.", s.name).
			WithDetails(map[string]any{"agent": s.name, "agentId": s.id})
	}
	s.busy, s.cancel, s.done = true, cancel, make(chan struct{})
	s.calls++
	s.invocation = s.id + "/" + strconv.Itoa(s.calls)
	s.call = p.Call
	s.usage = nil
	if p.Phase != "" {
		if s.phases == nil {
			s.phases = map[string]string{}
		}
		s.phases[s.invocation] = p.Phase
	}
	if p.Call > 0 && p.Call <= s.cancelledUpTo {
		cancel(errCancelled) // the cancel overtook this execute
	}
	s.mu.Unlock()

	s.event(&eventapi.AgentInvocationStarted{Name: s.name, PromptKind: p.Prompt.Kind(), ConfigID: configID(p.Config), PromptPreview: promptPreview(p.Prompt)})
	res, err := s.run(ctx, p)
	if err != nil {
		err = s.classify(ctx, err)
	}
	s.event(&eventapi.AgentInvocationCompleted{Status: status(err, eventapi.StatusCompleted), Error: eventError(err)})

	s.mu.Lock()
	pr := s.pr
	if res != nil {
		res.Usage = s.usage
	}
	s.busy, s.cancel = false, nil
	close(s.done)
	s.mu.Unlock()
	if res != nil && pr != nil {
		res.Session = s.sessionRef(pr.selection.harness())
	}
	return res, err
}

func (s *session) run(ctx context.Context, p agentproto.ExecuteParams) (*agentproto.ExecuteResult, error) {
	s.mu.Lock()
	pr := s.pr
	s.mu.Unlock()
	if pr == nil {
		var err error
		s.mu.Lock()
		s.cont = p.Continue
		s.mu.Unlock()
		if pr, err = s.h.prepare(ctx, s, p); err != nil {
			return nil, err
		}
		s.mu.Lock()
		s.pr = pr
		s.mu.Unlock()
	}
	text, err := userPrompt(pr, p.Prompt, p.TemplateVariables)
	if err != nil {
		return nil, err
	}
	queued := func() { s.event(&eventapi.AgentAdmissionQueued{}) }
	if err := s.h.pool.Acquire(ctx, queued); err != nil {
		return nil, err
	}
	defer s.h.pool.Release()
	if err := s.initialize(ctx, pr); err != nil {
		return nil, err
	}
	if err := pr.hooks.onStart(ctx); err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		// Cancelled before the harness got the prompt: it never sees it.
		return nil, context.Cause(ctx)
	}
	out, err := pr.adapter.Execute(ctx, s.carryTranscript(text))
	if pr.schema != nil {
		res, err := s.structured(ctx, pr, out, err)
		return s.keepPrompt(pr, res, text), err
	}
	if err != nil {
		return nil, err
	}
	return s.keepPrompt(pr, &agentproto.ExecuteResult{Text: &out.Text}, text), nil
}

// initialize starts the harness session unless an earlier call did. A
// failure leaves the session uninitialized: the next explicit execute tries
// again with the same configuration.
func (s *session) initialize(ctx context.Context, pr *prepared) error {
	s.mu.Lock()
	done := s.initialized
	s.mu.Unlock()
	if done {
		return nil
	}
	s.event(&eventapi.AgentInitializationStarted{})
	if err := pr.adapter.Initialize(ctx); err != nil {
		var ae *agentproto.Error
		if !errors.As(err, &ae) {
			err = agentproto.Errorf(agentproto.CodeInitialization, "agent %q: initialization failed: %v", s.name, err).Wrap(err)
		}
		s.event(&eventapi.AgentInitializationCompleted{Status: eventapi.StatusFailed, Error: eventError(err)})
		return err
	}
	harness := pr.selection.harness()
	s.event(&eventapi.AgentInitializationCompleted{Status: eventapi.StatusCompleted, Harness: harness})
	reg, known := s.h.harnesses[harness]
	s.reportContinuation(harness, reg, known, pr.selection.current())
	s.mu.Lock()
	s.initialized = true
	s.mu.Unlock()
	return nil
}

// classify turns whatever ended a cancelled call into the cancellation
// error, and gives uncoded adapter errors the execution code.
func (s *session) classify(ctx context.Context, err error) error {
	switch cause := context.Cause(ctx); {
	case errors.Is(cause, errCancelled):
		return agentproto.Errorf(agentproto.CodeCancelled, "execute of agent %q was cancelled", s.name).Wrap(err)
	case errors.Is(cause, errClosed):
		return agentproto.Errorf(agentproto.CodeCancelled, "execute of agent %q was cancelled: %v", s.name, errClosed).Wrap(err)
	}
	var ae *agentproto.Error
	if errors.As(err, &ae) {
		return err
	}
	return agentproto.Errorf(agentproto.CodeExecution, "agent %q: %v", s.name, err).Wrap(err)
}

// requestCancel signals call (queued, initializing or executing) to stop,
// now if it runs, or when it arrives. A cancel naming a call that already
// ended, while no call runs, reaches the harness session alone: it stops
// the background work earlier prompts left running: cancellation also
// applies when only background work remains. It does not wait.
func (s *session) requestCancel(call int) {
	s.mu.Lock()
	if call > s.cancelledUpTo {
		s.cancelledUpTo = call
	}
	cancel, pr, initialized := s.cancel, s.pr, s.initialized
	running := s.busy && s.call == call
	idle := !s.busy && call > 0 && call <= s.call
	s.mu.Unlock()
	if running {
		cancel(errCancelled)
	}
	if (running || idle) && pr != nil && initialized {
		pr.adapter.Cancel()
	}
}

// close cancels a running call, waits for it (bounded) and releases the
// harness session. It reports whether harness resources were released.
func (s *session) close(ctx context.Context) (bool, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return false, nil
	}
	s.closed = true
	cancel, done, pr := s.cancel, s.done, s.pr
	s.mu.Unlock()
	if cancel != nil {
		cancel(errClosed)
		if pr != nil {
			pr.adapter.Cancel()
		}
		t := time.NewTimer(closeWait)
		select {
		case <-done:
		case <-t.C:
			s.h.log.Warn("agent call did not stop in time; closing its harness session anyway", "agent", s.name, "wait", closeWait)
		case <-ctx.Done():
		}
		t.Stop()
	}
	if pr == nil {
		return false, nil
	}
	err := pr.adapter.Close(ctx)
	s.endUnfinishedTasks()
	if err != nil {
		s.event(&eventapi.AgentClosed{Status: eventapi.StatusFailed, Error: &eventapi.Error{Message: err.Error()}})
		return true, fmt.Errorf("agent %q: close: %w", s.name, err)
	}
	s.event(&eventapi.AgentClosed{Status: eventapi.StatusClosed})
	return true, nil
}

// onAdapterEvent is the adapter's event callback, bound to this agent: it
// records the event with the agent and the invocation it belongs to.
func (s *session) onAdapterEvent(e adapter.Event) {
	if e.Details == nil {
		s.h.log.Warn("adapter event without details dropped", "agent", s.name)
		return
	}
	ev := eventapi.New(e.Details)
	if !e.Time.IsZero() {
		ev.Timestamp = stamp(e.Time)
	}
	ev.IDs, ev.Reconstructed = e.IDs, e.Reconstructed
	if ev.IDs.InvocationID == "" {
		ev.IDs.InvocationID = s.invocationOf(e)
	}
	ev.AgentID, ev.ExecutionID, ev.Label = s.id, s.executionID, s.label
	ev.Phase = s.phaseOf(ev.IDs.InvocationID)
	if u, ok := e.Details.(*eventapi.Usage); ok {
		s.addUsage(ev.IDs.InvocationID, u)
	}
	if id := ev.IDs.NativeSessionID; id != "" {
		s.mu.Lock()
		s.native = id
		s.mu.Unlock()
	}
	s.h.record(ev)
}

// addUsage adds a usage event of the invocation to the running call's sum.
func (s *session) addUsage(invocation string, u *eventapi.Usage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.busy || invocation != s.invocation {
		return // background work's, reported after its call ended
	}
	if s.usage == nil {
		s.usage = &agentproto.CallUsage{}
	}
	s.usage.Turns++
	s.usage.Tokens += u.InputTokens + u.OutputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens
	if u.CostUSD == nil {
		s.usage.UnknownCostTurns++
		return
	}
	s.usage.USD = math.Round((s.usage.USD+*u.CostUSD)*1e10) / 1e10
}

// invocationOf is the invocation e belongs to: for an event of background
// work, the one during which the work started, even when the work reports
// after it ended; else the running (or last) one.
func (s *session) invocationOf(e adapter.Event) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := e.IDs.TaskID
	if id == "" {
		return s.invocation
	}
	switch e.Details.(type) {
	case *eventapi.BackgroundStarted:
		if s.tasks == nil {
			s.tasks = map[string]string{}
		}
		s.tasks[id] = s.invocation
	case *eventapi.BackgroundActivity:
		if owner, ok := s.tasks[id]; ok {
			return owner
		}
	case *eventapi.BackgroundCompleted:
		if owner, ok := s.tasks[id]; ok {
			delete(s.tasks, id)
			return owner
		}
	}
	return s.invocation
}

// phaseOf is the phase invocation was started in ("" outside any).
func (s *session) phaseOf(invocation string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.phases[invocation]
}

// endUnfinishedTasks records the end of the background work still running
// as the harness session closed: incomplete, and reconstructed, since the
// harness never reported it.
func (s *session) endUnfinishedTasks() {
	s.mu.Lock()
	ids := slices.Sorted(maps.Keys(s.tasks))
	s.mu.Unlock()
	for _, id := range ids {
		s.onAdapterEvent(adapter.Event{Time: time.Now(), IDs: eventapi.IDs{TaskID: id}, Reconstructed: true,
			Details: &eventapi.BackgroundCompleted{Status: eventapi.StatusIncomplete}})
	}
}

func (s *session) event(d eventapi.Details) {
	s.onAdapterEvent(adapter.NewEvent(eventapi.IDs{}, d))
}

// status is the status of an outcome: failed with an error, else ok.
func status(err error, ok string) string {
	if err != nil {
		return eventapi.StatusFailed
	}
	return ok
}

// eventError is err as events carry it: its code and message; nil
// without an error.
func eventError(err error) *eventapi.Error {
	if err == nil {
		return nil
	}
	return &eventapi.Error{Code: agentproto.CodeOf(err), Message: err.Error()}
}

// configID reads the configId of an execute's creation fields ("" when it
// has none or they do not decode: prepare reports that).
func configID(config json.RawMessage) string {
	var c struct {
		ConfigID string `json:"configId"`
	}
	_ = json.Unmarshal(config, &c)
	return c.ConfigID
}

// promptPreview is the first line of a prompt given as text, for the
// agent-start event; a prompt from a file or a template is rendered later,
// after the event, and previews as nothing.
func promptPreview(p agentproto.PromptSource) string {
	if p.Text == nil {
		return ""
	}
	return eventapi.PromptPreview(*p.Text)
}
