package codex

import (
	"fmt"
	"strings"
	"sync"
	"time"
)

// outcomeWait bounds how long a PostToolUse hook waits for the item that
// tells how its call ended. Codex reports item/completed a few
// milliseconds before it runs the hook; the wait only covers the reader
// goroutine not having handled that line yet.
const outcomeWait = 2 * time.Second

// toolOutcome is how a tool call ended, from its item/completed: Codex's
// PostToolUse hook input carries only the output, never whether the call
// failed.
type toolOutcome struct {
	failed  bool
	message string
}

// outcomes records how each tool call of the session ended, by call id,
// for the afterToolCall hook of that call.
type outcomes struct {
	mu      sync.Mutex
	done    map[string]toolOutcome
	waiting map[string]chan struct{}
}

func newOutcomes() *outcomes {
	return &outcomes{done: map[string]toolOutcome{}, waiting: map[string]chan struct{}{}}
}

func (o *outcomes) record(id string, out toolOutcome) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.done[id] = out
	if ch, ok := o.waiting[id]; ok {
		close(ch)
		delete(o.waiting, id)
	}
}

// take returns (and forgets) the outcome of call id, waiting up to d for
// it to be recorded.
func (o *outcomes) take(id string, d time.Duration) (toolOutcome, bool) {
	o.mu.Lock()
	out, ok := o.done[id]
	if ok {
		delete(o.done, id)
		o.mu.Unlock()
		return out, true
	}
	ch, waiting := o.waiting[id]
	if !waiting {
		ch = make(chan struct{})
		o.waiting[id] = ch
	}
	o.mu.Unlock()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	out, ok = o.done[id]
	delete(o.done, id)
	if !ok {
		delete(o.waiting, id)
	}
	return out, ok
}

// outcomeOf reads a completed tool item: a command that exited non-zero
// or was declined, or an MCP call that failed, is a failure.
func outcomeOf(it *item) (toolOutcome, bool) {
	switch it.Type {
	case "commandExecution":
		out := ""
		if it.AggregatedOutput != nil {
			out = strings.TrimSpace(*it.AggregatedOutput)
		}
		switch {
		case it.ExitCode != nil && *it.ExitCode != 0:
			return toolOutcome{failed: true, message: strings.TrimSpace(fmt.Sprintf("%s\n(exit code %d)", out, *it.ExitCode))}, true
		case it.Status == "failed" || it.Status == "declined":
			return toolOutcome{failed: true, message: strings.TrimSpace(out + "\n(" + it.Status + ")")}, true
		}
		return toolOutcome{}, true
	case "mcpToolCall":
		if it.Status == "failed" {
			msg := "the MCP tool call failed"
			if it.Error != nil && it.Error.Message != "" {
				msg = it.Error.Message
			}
			return toolOutcome{failed: true, message: msg}, true
		}
		return toolOutcome{}, true
	}
	return toolOutcome{}, false
}
