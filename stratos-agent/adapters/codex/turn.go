package codex

import (
	"context"
	"encoding/json"

	"strings"
	"sync"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"

	"github.com/stratoscli/stratos/stratos-agent/adapter/process"
)

// turn is one prompt in flight on the thread: how it ended and what the
// model-selection rule needs to know about it.
type turn struct {
	ctx  context.Context // the execute's: author hooks run under it
	done chan turnEnd    // receives turn/completed

	mu          sync.Mutex
	id          string // the native turn id, once turn/start answered
	failure     error  // an author hook threw (or Codex failed a hook)
	cancelled   bool
	work        bool   // output, reasoning or tool work happened
	lastMessage string // the newest completed agentMessage text
	cancelOnce  sync.Once
	cancelledCh chan struct{}
}

// turnEnd is the turn/completed notification's turn.
type turnEnd struct {
	ID     string     `json:"id"`
	Status string     `json:"status"` // completed | interrupted | failed
	Error  *turnError `json:"error"`
	Items  []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"items"`
}

// turnError is Codex's TurnError: a message and the structured
// codexErrorInfo (a string, or an object with one key).
type turnError struct {
	Message string          `json:"message"`
	Info    json.RawMessage `json:"codexErrorInfo"`
}

func newTurn(ctx context.Context) *turn {
	return &turn{ctx: ctx, done: make(chan turnEnd, 1), cancelledCh: make(chan struct{})}
}

func (t *turn) fail(err error) {
	t.mu.Lock()
	if t.failure == nil {
		t.failure = err
	}
	t.mu.Unlock()
}

func (t *turn) cancel() {
	t.mu.Lock()
	t.cancelled = true
	t.mu.Unlock()
	t.cancelOnce.Do(func() { close(t.cancelledCh) })
}

func (t *turn) markWork() {
	t.mu.Lock()
	t.work = true
	t.mu.Unlock()
}

func (t *turn) hadWork() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.work
}

func (t *turn) setID(id string) {
	t.mu.Lock()
	t.id = id
	t.mu.Unlock()
}

func (t *turn) nativeID() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.id
}

func (t *turn) setMessage(text string) {
	t.mu.Lock()
	t.lastMessage = text
	t.mu.Unlock()
}

// outcome turns turn/completed into the execute's result. With an output
// schema the final message is the value (Codex constrains it with
// text.format json_schema but does not check it; the host validates it
// against the schema).
func (t *turn) outcome(end turnEnd, schema bool, name string) (adapter.Result, error) {
	t.mu.Lock()
	failure, cancelled, text := t.failure, t.cancelled, t.lastMessage
	t.mu.Unlock()
	for _, it := range end.Items {
		if it.Type == "agentMessage" {
			text = it.Text
		}
	}
	switch {
	case failure != nil:
		return adapter.Result{}, failure
	case cancelled || end.Status == "interrupted":
		return adapter.Result{}, cancelledError(name)
	case end.Status == "failed":
		return adapter.Result{}, end.Error.classify(name, t.hadWork())
	case !schema:
		return adapter.Result{Text: text}, nil
	}
	v := json.RawMessage(strings.TrimSpace(text))
	if len(v) == 0 || !json.Valid(v) {
		return adapter.Result{}, agentproto.Errorf(agentproto.CodeStructuredOutput,
			"agent %q: codex ended the turn without a JSON value for the output schema (final message: %q)", name, process.Truncate(text, 200)).
			WithDetails(map[string]any{"harness": Harness})
	}
	return adapter.Result{Value: v}, nil
}

// errorInfo is codexErrorInfo's kind ("modelNotFound", "httpConnectionFailed",
// …) and, for the HTTP kinds, the status.
func (e *turnError) errorInfo() (kind string, status int) {
	if e == nil || len(e.Info) == 0 {
		return "", 0
	}
	if json.Unmarshal(e.Info, &kind) == nil {
		return kind, 0
	}
	var obj map[string]struct {
		Status *int `json:"httpStatusCode"`
	}
	if json.Unmarshal(e.Info, &obj) != nil {
		return "", 0
	}
	for k, v := range obj {
		kind = k
		if v.Status != nil {
			status = *v.Status
		}
	}
	return kind, status
}

// classify gives a failed turn its agent error from Codex's structured
// error info, never from prose alone: model not found → a model-unavailable
// rejection, unauthorized or HTTP 401/403 → an authentication rejection
// (the selector may try the next candidate unless the turn already did
// work); anything else is an execution error.
func (e *turnError) classify(name string, work bool) error {
	if e == nil {
		return agentproto.Errorf(agentproto.CodeExecution, "agent %q: codex: the turn failed without an error", name)
	}
	kind, status := e.errorInfo()
	d := map[string]any{"harness": Harness, "codexErrorInfo": kind}
	if status != 0 {
		d["httpStatus"] = status
	}
	var r *rejection.Error
	switch {
	case kind == "modelNotFound":
		r = rejection.New(rejection.ModelUnavailable, "agent %q: codex: %s", name, e.Message).WithDetails(d)
	case kind == "unauthorized" || (kind == "httpConnectionFailed" && (status == 401 || status == 403)):
		r = rejection.New(rejection.Authentication, "agent %q: harness codex: %s", name, e.Message).WithDetails(d)
	}
	if r != nil {
		if work {
			return r.Final()
		}
		return r
	}
	return agentproto.Errorf(agentproto.CodeExecution, "agent %q: codex: %s", name, e.Message).WithDetails(d)
}

func cancelledError(name string) error {
	return agentproto.Errorf(agentproto.CodeCancelled, "execute of agent %q was cancelled", name)
}

// nativeHookFailed is the error of a hook run Codex reports as failed
// (timeout, bad output): Codex would let the tool proceed, Stratos fails
// the invocation instead.
func nativeHookFailed(name, event, detail string) error {
	return agentproto.Errorf(agentproto.CodeHookFailed, "agent %q: codex could not run the Stratos %s hook: %s", name, event, detail).
		WithDetails(map[string]any{"harness": Harness})
}

func inputText(prompt string) []any {
	return []any{map[string]any{"type": "text", "text": prompt, "text_elements": []any{}}}
}
