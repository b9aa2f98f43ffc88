package claudecode

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
)

// cancelWait bounds how long a cancelled execute waits for the CLI to end
// the interrupted turn (its result frame normally follows the interrupt
// within tens of milliseconds).
const cancelWait = 15 * time.Second

// turn is one prompt in flight: its uuid, how it ended, and what the
// selection rule needs to know about it.
type turn struct {
	uuid   string
	ctx    context.Context // the execute's: author hooks run under it
	result chan *resultFrame

	mu          sync.Mutex
	failure     error  // an author hook threw: the invocation fails with it
	cancelled   bool   // cancel() or the execute's context ended
	apiError    string // the error class of a synthetic assistant message (model_not_found, …)
	work        bool   // output, reasoning or tool work happened
	cancelOnce  sync.Once
	cancelledCh chan struct{}
}

func newTurn(ctx context.Context) *turn {
	return &turn{uuid: newUUID(), ctx: ctx, result: make(chan *resultFrame, 1), cancelledCh: make(chan struct{})}
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

// note records what a frame of this turn says about selection: any
// output, reasoning or tool work, and the error class of the CLI's
// synthetic API-error message.
func (t *turn) note(f *frame) {
	switch f.Type {
	case "assistant":
		if f.Error != "" && f.Message != nil && f.Message.Model == "<synthetic>" {
			t.mu.Lock()
			t.apiError = f.Error
			t.mu.Unlock()
			return
		}
		t.markWork()
	case "stream_event":
		var ev streamEvent
		if json.Unmarshal(f.Event, &ev) == nil && ev.Type == "content_block_delta" {
			t.markWork()
		}
	case "system":
		if strings.HasPrefix(f.Subtype, "task_") {
			t.markWork()
		}
	}
}

// outcome turns the turn's result frame into the execute's result.
func (t *turn) outcome(r *resultFrame, schema bool, name string) (adapter.Result, error) {
	t.mu.Lock()
	failure, cancelled, apiError := t.failure, t.cancelled, t.apiError
	t.mu.Unlock()
	switch {
	case failure != nil:
		return adapter.Result{}, failure
	case cancelled:
		return adapter.Result{}, cancelledError(name)
	case r.Subtype == "error_max_structured_output_retries":
		return adapter.Result{}, agentproto.Errorf(agentproto.CodeStructuredOutput,
			"agent %q: claude-code gave no valid structured output: %s", name, strings.Join(r.Errors, "; ")).
			WithDetails(resultDetails(r))
	case r.IsError || r.Subtype != "success":
		return adapter.Result{}, resultError(r, apiError, name, t.hadWork())
	case schema:
		return structured(r, name)
	}
	return adapter.Result{Text: r.Result}, nil
}

// structured returns the native structured output. A schema-bound turn
// that ends without one (the model ignored the CLI's enforcement nudge) is
// a structured-output error: the text is never parsed instead.
func structured(r *resultFrame, name string) (adapter.Result, error) {
	v := r.StructuredOutput
	if len(v) == 0 || string(v) == "null" {
		return adapter.Result{}, agentproto.Errorf(agentproto.CodeStructuredOutput,
			"agent %q: claude-code ended the turn without structured output (the model did not call StructuredOutput)", name).
			WithDetails(resultDetails(r))
	}
	if !json.Valid(v) {
		return adapter.Result{}, agentproto.Errorf(agentproto.CodeStructuredOutput, "agent %q: claude-code returned structured output that is not JSON", name)
	}
	return adapter.Result{Value: v}, nil
}

func (t *turn) hadWork() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.work
}

// resultError classifies a failed turn from the CLI's structured metadata
// (the synthetic assistant message's error class, api_error_type); prose
// and HTTP status alone never decide (docs/design/harness-selection.md). A
// model rejection lets the selector try another candidate only when the
// turn did no work yet.
func resultError(r *resultFrame, apiError, name string, work bool) error {
	msg := r.Result
	if msg == "" {
		msg = strings.Join(r.Errors, "; ")
	}
	d := resultDetails(r)
	switch {
	case apiError == "model_not_found" && r.APIErrorType == "not_found_error":
		rej := rejection.New(rejection.ModelUnavailable, "agent %q: claude-code: %s", name, msg).WithDetails(d)
		if work {
			return rej.Final()
		}
		return rej
	case apiError == "authentication_failed":
		return rejection.New(rejection.Authentication, "agent %q: harness claude-code: %s", name, msg).WithDetails(d).Final()
	}
	return agentproto.Errorf(agentproto.CodeExecution, "agent %q: claude-code: %s", name, msg).WithDetails(d)
}

func resultDetails(r *resultFrame) map[string]any {
	d := map[string]any{"harness": Harness, "subtype": r.Subtype, "terminalReason": r.TerminalReason}
	if r.APIErrorStatus != nil {
		d["apiErrorStatus"] = *r.APIErrorStatus
	}
	if r.APIErrorType != "" {
		d["apiErrorType"] = r.APIErrorType
	}
	if len(r.Errors) > 0 {
		d["errors"] = r.Errors
	}
	return d
}

func cancelledError(name string) error {
	return agentproto.Errorf(agentproto.CodeCancelled, "execute of agent %q was cancelled", name)
}

func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
