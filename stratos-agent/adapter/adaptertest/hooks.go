package adaptertest

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// Hooks records the author hook calls an adapter makes and answers with
// Before and After (default: allow, no change).
type Hooks struct {
	Before func(adapter.ToolCall) (agentproto.BeforeToolCallResult, error)
	After  func(adapter.ToolCall, json.RawMessage, *agentproto.ToolError) (agentproto.AfterToolCallResult, error)

	mu    sync.Mutex
	calls []string
}

// BeforeToolCall records the call and answers with Before.
func (h *Hooks) BeforeToolCall(_ context.Context, c adapter.ToolCall) (agentproto.BeforeToolCallResult, error) {
	h.mu.Lock()
	h.calls = append(h.calls, "before "+c.Name)
	before := h.Before
	h.mu.Unlock()
	if before != nil {
		return before(c)
	}
	return agentproto.BeforeToolCallResult{Action: agentproto.ActionAllow}, nil
}

// AfterToolCall records the call and answers with After.
func (h *Hooks) AfterToolCall(_ context.Context, c adapter.ToolCall, out json.RawMessage, e *agentproto.ToolError) (agentproto.AfterToolCallResult, error) {
	h.mu.Lock()
	h.calls = append(h.calls, "after "+c.Name)
	after := h.After
	h.mu.Unlock()
	if after != nil {
		return after(c, out, e)
	}
	return agentproto.AfterToolCallResult{}, nil
}

// Seen lists the hook calls so far ("before Bash", "after Bash", …).
func (h *Hooks) Seen() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.calls...)
}

func (h *Hooks) setBefore(f func(adapter.ToolCall) (agentproto.BeforeToolCallResult, error)) {
	h.mu.Lock()
	h.Before = f
	h.mu.Unlock()
}
