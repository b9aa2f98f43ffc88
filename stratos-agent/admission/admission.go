// Package admission limits the agent calls of one top-level execution (and
// its children, which share its pool): at most MaxConcurrent calls run, the
// others wait in FIFO order, and at most MaxOutstanding calls run or wait —
// one more is rejected instead of queued.
package admission

import (
	"container/list"
	"context"
	"sync"

	"github.com/stratoscli/stratos/shared/agentproto"
)

// Pool is the admission state of one top-level execution.
type Pool struct {
	maxConcurrent, maxOutstanding int

	mu      sync.Mutex
	running int
	queue   list.List // of chan struct{}, closed when admitted
}

// New returns a pool with the given limits (both >= 1).
func New(maxConcurrent, maxOutstanding int) *Pool {
	return &Pool{maxConcurrent: maxConcurrent, maxOutstanding: maxOutstanding}
}

// Stats reports the running and queued calls.
func (p *Pool) Stats() (running, queued int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.running, p.queue.Len()
}

// Acquire admits one call, waiting in line while MaxConcurrent calls run.
// It fails at once with an "admission" error when MaxOutstanding calls are
// already running or waiting, and with ctx's cause when ctx ends first.
// Each successful Acquire must be paired with one Release. queued (may be
// nil) is called when the call has to wait.
func (p *Pool) Acquire(ctx context.Context, queued func()) error {
	p.mu.Lock()
	if p.running+p.queue.Len() >= p.maxOutstanding {
		running, queued := p.running, p.queue.Len()
		p.mu.Unlock()
		return agentproto.Errorf(agentproto.CodeAdmission,
			"agent call rejected: %d agent calls are already running or queued in this execution (agents.maxOutstanding is %d; %d running, %d queued); wait for some to finish or raise the limit in ~/.stratos/settings.json",
			running+queued, p.maxOutstanding, running, queued).
			WithDetails(map[string]any{"maxOutstanding": p.maxOutstanding, "maxConcurrent": p.maxConcurrent, "running": running, "queued": queued})
	}
	if p.running < p.maxConcurrent && p.queue.Len() == 0 {
		p.running++
		p.mu.Unlock()
		return nil
	}
	admitted := make(chan struct{})
	elem := p.queue.PushBack(admitted)
	p.mu.Unlock()
	if queued != nil {
		queued()
	}

	select {
	case <-admitted:
		return nil
	case <-ctx.Done():
		p.mu.Lock()
		select {
		case <-admitted:
			// Admitted while giving up: hand the slot on.
			p.mu.Unlock()
			p.Release()
		default:
			p.queue.Remove(elem)
			p.mu.Unlock()
		}
		return context.Cause(ctx)
	}
}

// Release ends one admitted call and admits the next waiting one.
func (p *Pool) Release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if front := p.queue.Front(); front != nil {
		p.queue.Remove(front)
		close(front.Value.(chan struct{}))
		return // the slot passes to the waiter: running stays the same
	}
	p.running--
}
