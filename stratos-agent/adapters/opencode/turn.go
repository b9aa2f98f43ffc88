package opencode

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
)

// turn is one prompt in flight: the assistant messages that answer it
// (their parentID is the prompt's message ID, which Stratos chooses) and
// how it ended.
type turn struct {
	ctx       context.Context // the execute's: author hooks run under it
	messageID string

	mu          sync.Mutex
	prompted    bool // the prompt's user message was stored
	busy        bool // the session went busy after that
	ended       bool
	done        chan struct{}
	failure     error // an author hook threw
	cancelled   bool
	cancelledCh chan struct{}
	work        bool                    // a tool ran or text streamed
	toolCalled  bool                    // the plugin announced a tool call: the turn may have several steps
	replies     map[string]*messageInfo // assistant messages by ID
	texts       map[string]map[string]string
	sessionErr  *apiError
}

func newTurn(ctx context.Context, messageID string) *turn {
	return &turn{ctx: ctx, messageID: messageID, done: make(chan struct{}), cancelledCh: make(chan struct{}),
		replies: map[string]*messageInfo{}, texts: map[string]map[string]string{}}
}

func (t *turn) fail(err error) {
	t.mu.Lock()
	if t.failure == nil {
		t.failure = err
	}
	t.mu.Unlock()
}

// announceTool notes a tool call the plugin announced before running it.
func (t *turn) announceTool() {
	t.mu.Lock()
	t.toolCalled = true
	t.mu.Unlock()
}

func (t *turn) mayHaveSteps() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.toolCalled
}

// finish ends the turn whatever the stream has shown: its answer came
// with the synchronous response (or it is given up).
func (t *turn) finish() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.ended {
		t.ended = true
		close(t.done)
	}
}

func (t *turn) cancel() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.cancelled {
		t.cancelled = true
		close(t.cancelledCh)
	}
}

// observe records what the event says about this turn; the turn ends at
// the session's idle status once it was busy after storing the prompt (or
// failed before). Status events of an earlier turn can still be in the
// stream when the next prompt is sent; they come before its user message.
func (t *turn) observe(ev event, p *props) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.ended {
		t.recordLocked(ev, p)
	}
}

// record notes what a replayed message says, after the stream's events
// (the replay runs before the turn is finished).
func (t *turn) record(ev event, p *props) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.recordLocked(ev, p)
}

func (t *turn) recordLocked(ev event, p *props) {
	switch ev.Type {
	case "message.updated":
		switch {
		case p.Info == nil:
		case p.Info.Role == "user" && p.Info.ID == t.messageID:
			t.prompted = true
		case p.Info.Role == "assistant" && p.Info.ParentID == t.messageID:
			info := *p.Info
			t.replies[info.ID] = &info
		}
	case "message.part.updated":
		if p.Part == nil {
			return
		}
		switch p.Part.Type {
		case "text":
			if t.texts[p.Part.MessageID] == nil {
				t.texts[p.Part.MessageID] = map[string]string{}
			}
			t.texts[p.Part.MessageID][p.Part.ID] = p.Part.Text
			t.work = t.work || p.Part.Text != ""
		case "tool":
			t.work = true
		}
	case "session.error":
		if p.Error != nil {
			t.sessionErr = p.Error
		}
	case "session.status":
		if p.Status == nil {
			return
		}
		if p.Status.Type == "busy" && t.prompted {
			t.busy = true
		} else if p.Status.Type == "idle" {
			t.endLocked()
		}
	case "session.idle":
		t.endLocked()
	}
}

func (t *turn) endLocked() {
	if t.ended {
		return
	}
	if t.busy || t.sessionErr != nil || t.cancelled {
		t.ended = true
		close(t.done)
	}
}

// last is the newest assistant message answering the prompt (OpenCode's
// IDs sort by time), or nil.
func (t *turn) lastLocked() *messageInfo {
	ids := make([]string, 0, len(t.replies))
	for id := range t.replies {
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		return nil
	}
	sort.Strings(ids)
	return t.replies[ids[len(ids)-1]]
}

// textLocked is the text of message id, its text parts in order.
func (t *turn) textLocked(id string) string {
	parts := t.texts[id]
	ids := slices.Sorted(maps.Keys(parts))
	var b strings.Builder
	for _, pid := range ids {
		b.WriteString(parts[pid])
	}
	return b.String()
}

// outcome is the execute's result once the turn ended.
func (t *turn) outcome(schema bool, name string) (adapter.Result, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	last := t.lastLocked()
	switch {
	case t.failure != nil:
		return adapter.Result{}, t.failure
	case t.cancelled:
		return adapter.Result{}, cancelledError(name)
	case last != nil && last.Error != nil:
		return adapter.Result{}, classify(last.Error, name, t.work)
	case t.sessionErr != nil:
		// The session reports the failure before the failed message's
		// last update (and alone when no assistant message was made).
		return adapter.Result{}, classify(t.sessionErr, name, t.work)
	case last == nil:
		return adapter.Result{}, agentproto.Errorf(agentproto.CodeExecution, "agent %q: opencode ended the turn without an answer", name).
			WithDetails(map[string]any{"harness": Harness})
	case !schema:
		return adapter.Result{Text: t.textLocked(last.ID)}, nil
	}
	for _, m := range t.replies {
		if len(m.Structured) > 0 && string(m.Structured) != "null" {
			return adapter.Result{Value: json.RawMessage(m.Structured)}, nil
		}
	}
	return adapter.Result{}, agentproto.Errorf(agentproto.CodeStructuredOutput,
		"agent %q: opencode ended the turn without a structured value for the output schema", name).WithDetails(map[string]any{"harness": Harness})
}

// classify gives an OpenCode error its agent error: an aborted message is
// a cancellation; a model OpenCode cannot find, or an upstream 404, is a
// model-unavailable rejection, and an upstream 401/403 an authentication
// rejection (the selector may try the next candidate unless the turn
// already did work); a missing structured value is a structured-output
// error; anything else an execution error.
func classify(e *apiError, name string, work bool) error {
	d := map[string]any{"harness": Harness, "opencodeError": e.Name}
	if e.Data.StatusCode != 0 {
		d["httpStatus"] = e.Data.StatusCode
	}
	var r *rejection.Error
	switch {
	case e.Name == "MessageAbortedError":
		return cancelledError(name)
	case e.Name == "StructuredOutputError":
		return agentproto.Errorf(agentproto.CodeStructuredOutput, "agent %q: opencode: %s", name, e.Data.Message).WithDetails(d)
	case strings.HasPrefix(e.Data.Message, "Model not found:"), e.Name == "APIError" && e.Data.StatusCode == 404:
		r = rejection.New(rejection.ModelUnavailable, "agent %q: opencode: %s", name, e.Data.Message).WithDetails(d)
	case e.Name == "ProviderAuthError", e.Name == "APIError" && (e.Data.StatusCode == 401 || e.Data.StatusCode == 403):
		r = rejection.New(rejection.Authentication, "agent %q: harness opencode: %s", name, e.Data.Message).WithDetails(d)
	}
	if r != nil {
		if work {
			return r.Final()
		}
		return r
	}
	return agentproto.Errorf(agentproto.CodeExecution, "agent %q: opencode: %s: %s", name, e.Name, e.Data.Message).WithDetails(d)
}

func cancelledError(name string) error {
	return agentproto.Errorf(agentproto.CodeCancelled, "execute of agent %q was cancelled", name)
}
