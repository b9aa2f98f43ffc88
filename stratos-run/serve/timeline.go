package serve

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/stratoscli/stratos/stratos-run/runs"
)

// runFeed is what a run's event stream sends: the events of its log and,
// as they come, the run's timeline (runs.Timeline, the rows `stratos runs
// show --timeline` draws), built from the same events as they are read.
// The log is read by the stream's goroutine and the timeline sent by a
// ticker's, hence the lock around both and the connection.
type runFeed struct {
	mu      sync.Mutex
	out     *sse
	b       *runs.TimelineBuilder
	skip, n int  // the lines the browser has (Last-Event-ID), the lines read
	changed bool // events came since the last timeline sent
}

// line takes the log's next line: every line goes into the timeline, and
// to the browser unless it had it before it reconnected.
func (f *runFeed) line(line []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n++
	f.b.Add(line)
	f.changed = true
	if f.n <= f.skip {
		return nil
	}
	return f.out.send("", strconv.Itoa(f.n), line)
}

// sendTimeline sends the timeline when events came since the last one.
func (f *runFeed) sendTimeline() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.changed {
		return nil
	}
	f.changed = false
	return f.out.sendJSON("timeline", f.b.Timeline())
}

// sendTimelines sends the timeline once per poll while ctx lasts, each
// time events came since the last; the returned function stops it and
// waits until it stopped.
func (f *runFeed) sendTimelines(ctx context.Context, poll time.Duration) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(poll)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if f.sendTimeline() != nil {
					return
				}
			}
		}
	}()
	return func() { cancel(); <-done }
}

// showTimeline answers the run's timeline as `stratos runs show --timeline
// --json` prints it.
func (s *Server) showTimeline(w http.ResponseWriter, r *http.Request) {
	id, err := s.store.Resolve(r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	tl, err := s.store.Timeline(id)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, tl)
}
