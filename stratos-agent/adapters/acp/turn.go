package acp

import (
	"context"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"strings"
	"sync"
)

// turn is one running session/prompt: the reply text, the tool calls it
// saw and how it ended early (cancelled, or failed by a hook).
type turn struct {
	ctx    context.Context
	stop   context.CancelFunc
	cancel func() // idempotent; closes cancelled

	cancelled chan struct{}
	hooks     sync.WaitGroup // after-hooks still running

	mu      sync.Mutex
	text    strings.Builder
	tools   map[string]*toolCall
	failure error
	work    bool // output or tool work happened
	// usage sums the token counts the agent's updates reported
	// (Agent.UpdateUsage); nil when none did.
	usage *eventapi.Tokens
	// echoes are the texts the agent will add to its reply for the calls
	// its hooks denied (NativeHooks.Echo), left out of the reply.
	echoes []string
}

// toolCall is what the turn knows of one tool call.
type toolCall struct {
	name    string
	started bool
	done    bool
	denied  bool
	// reason is why an agent's own hook denied the call (NativeHooks):
	// the agent reports the call's end afterwards, as a failure, and the
	// event says it was denied.
	reason string
}

func newTurn(ctx context.Context) *turn {
	ctx, stop := context.WithCancel(ctx)
	t := &turn{ctx: ctx, stop: stop, cancelled: make(chan struct{}), tools: map[string]*toolCall{}}
	var once sync.Once
	t.cancel = func() { once.Do(func() { close(t.cancelled) }) }
	return t
}

// Fail records the first failure (a hook threw, or asked for what the
// protocol cannot do) and stops the turn.
func (t *turn) Fail(err error) {
	t.mu.Lock()
	if t.failure == nil {
		t.failure = err
	}
	t.mu.Unlock()
	t.cancel()
}

func (t *turn) failed() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.failure
}

func (t *turn) isCancelled() bool {
	select {
	case <-t.cancelled:
		return true
	default:
		return false
	}
}

func (t *turn) addText(s string) {
	t.mu.Lock()
	t.text.WriteString(s)
	t.work = true
	t.mu.Unlock()
}

// echo reports, and forgets, a message chunk that is the agent's echo of
// a denied call.
func (t *turn) echo(text string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i, e := range t.echoes {
		if e != "" && e == text {
			t.echoes = append(t.echoes[:i], t.echoes[i+1:]...)
			return true
		}
	}
	return false
}

func (t *turn) reply() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.text.String()
}

func (t *turn) hadWork() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.work
}

// tool returns the call id's record, made on first sight.
func (t *turn) tool(id string) *toolCall {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.work = true
	c := t.tools[id]
	if c == nil {
		c = &toolCall{}
		t.tools[id] = c
	}
	return c
}

// ranTools reports whether the agent mentioned a tool call in the turn.
func (t *turn) ranTools() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.tools) > 0
}

func (t *turn) addUsage(u eventapi.Tokens) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.usage == nil {
		t.usage = &eventapi.Tokens{}
	}
	t.usage.InputTokens += u.InputTokens
	t.usage.OutputTokens += u.OutputTokens
	t.usage.CacheReadInputTokens += u.CacheReadInputTokens
}

// reportedUsage is the sum of the updates' token counts, or nil.
func (t *turn) reportedUsage() *eventapi.Tokens {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.usage == nil {
		return nil
	}
	u := *t.usage
	return &u
}
