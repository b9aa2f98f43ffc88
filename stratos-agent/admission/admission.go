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
	// reject is the error of a call refused with MaxOutstanding running
	// or waiting.
	reject Rejection

	mu      sync.Mutex
	running int
	queue   list.List // of chan struct{}, closed when admitted
}

// Rejection makes the error of a refused call from the pool's limits and
// what runs and waits.
type Rejection func(maxConcurrent, maxOutstanding, running, queued int) error

// New returns a pool of agent calls with the given limits (both >= 1).
func New(maxConcurrent, maxOutstanding int) *Pool {
	return NewWith(maxConcurrent, maxOutstanding, agentRejection)
}

// NewWith returns a pool whose refusals are reject's errors (decisions
// have their own pool, limits and error).
func NewWith(maxConcurrent, maxOutstanding int, reject Rejection) *Pool {
	return &Pool{maxConcurrent: maxConcurrent, maxOutstanding: maxOutstanding, reject: reject}
}

func agentRejection(maxConcurrent, maxOutstanding, running, queued int) error {
	return agentproto.Errorf(agentproto.CodeAdmission,
		"agent call rejected: %d agent calls are already running or queued in this execution (agents.maxOutstanding is %d; %d running, %d queued); wait for some to finish or raise the limit in ~/.stratos/settings.json",
		running+queued, maxOutstanding, running, queued).
		WithDetails(map[string]any{"maxOutstanding": maxOutstanding, "maxConcurrent": maxConcurrent, "running": running, "queued": queued})
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
		return p.reject(p.maxConcurrent, p.maxOutstanding, running, queued)
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
