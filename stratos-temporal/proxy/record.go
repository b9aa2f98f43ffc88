package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/stratoscli/stratos/shared/contract/journalapi"
	"github.com/stratoscli/stratos/stratos-temporal/engine"
)

// maxRecordBytes bounds what one signal carries (a Temporal payload, which
// the server refuses past 2 MiB); what does not fit goes in the next one.
const maxRecordBytes = 1 << 20

// recordLinger is how long the first thing to tell waits for others before
// its signal goes: an execute's end and the next one's start (the code
// asks for it as soon as it has the answer) then share one signal, and a
// fan-out's starts one or two. Nothing waits for these signals; until one
// arrives, a finished execute's own history holds its result.
const recordLinger = 100 * time.Millisecond

// recorder passes what the run's workflow must know (executes started and
// finished, journal entries) with one signal at a time: what accumulates
// while one is being sent goes in the next. A fan-out's executes then cost
// the run's history a few signals and workflow tasks, not two each.
type recorder struct {
	send   func(context.Context, engine.Record) error
	warn   io.Writer
	linger time.Duration

	mu      sync.Mutex
	pending []recordItem
	wake    chan struct{}
	closed  bool
	quit    chan struct{} // closed by close: linger no more
	done    chan struct{}
}

// recordItem is one thing to tell, with its size in a payload.
type recordItem struct {
	started  *engine.ExecuteStarted
	entry    *journalapi.Entry
	finished *engine.ExecuteFinished
	size     int
}

func startRecorder(send func(context.Context, engine.Record) error, warn io.Writer, linger time.Duration) *recorder {
	r := &recorder{send: send, warn: warn, linger: linger, wake: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	go r.loop()
	return r
}

func (r *recorder) started(s engine.ExecuteStarted) { r.add(recordItem{started: &s}, s) }

func (r *recorder) journal(e journalapi.Entry) { r.add(recordItem{entry: &e}, e) }

func (r *recorder) finished(f engine.ExecuteFinished) { r.add(recordItem{finished: &f}, f) }

func (r *recorder) add(it recordItem, v any) {
	b, _ := json.Marshal(v)
	it.size = len(b)
	r.mu.Lock()
	r.pending = append(r.pending, it)
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// close sends what is still pending and stops.
func (r *recorder) close() {
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
	close(r.quit)
	select {
	case r.wake <- struct{}{}:
	default:
	}
	<-r.done
}

func (r *recorder) loop() {
	defer close(r.done)
	for range r.wake {
		select {
		case <-time.After(r.linger):
		case <-r.quit:
		}
		for {
			rec, n, closed := r.next()
			if n == 0 {
				if closed {
					return
				}
				break
			}
			ctx, cancel := context.WithTimeout(context.Background(), signalTimeout)
			err := r.send(ctx, rec)
			cancel()
			if err != nil {
				fmt.Fprintf(r.warn, "stratos-temporal: %d executes' starts or ends or journal entries could not be passed to the run's workflow (what they record runs again if this worker dies): %v\n", n, err)
			}
		}
	}
}

// next takes the pending items that fit in one signal (at least one).
func (r *recorder) next() (engine.Record, int, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var rec engine.Record
	n, size := 0, 0
	for _, it := range r.pending {
		if n > 0 && size+it.size > maxRecordBytes {
			break
		}
		size += it.size
		n++
		switch {
		case it.started != nil:
			rec.Started = append(rec.Started, *it.started)
		case it.entry != nil:
			rec.Journal = append(rec.Journal, *it.entry)
		case it.finished != nil:
			rec.Finished = append(rec.Finished, *it.finished)
		}
	}
	r.pending = r.pending[n:]
	return rec, n, r.closed
}
