package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/stratos-run/records"
	"github.com/stratoscli/stratos/stratos-run/runs"
)

// How the streams see the records change: the run's process appends to
// events.jsonl and renames status.json (and output, error, tree) into place;
// the server follows them with runs.Store.Logs, which reads what was added
// every poll interval. A read of an unchanged file is one syscall, it works
// on every filesystem, and it cannot miss a rename (an inotify watch follows
// the old inode, and each new run directory would need a watch of its own).
// The page never polls: every change reaches it as a Server-Sent Event.

var errStreamingUnsupported = errors.New("the connection cannot stream")

// sse writes Server-Sent Events, flushing each one.
type sse struct {
	w http.ResponseWriter
	f http.Flusher
}

func newSSE(w http.ResponseWriter) (*sse, error) {
	f, ok := w.(http.Flusher)
	if !ok {
		return nil, errStreamingUnsupported
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	f.Flush()
	return &sse{w: w, f: f}, nil
}

// send writes one event; data must be one JSON value. JSON is one line
// once compact, but not always as a record holds it: JSON counts a
// carriage return as white space and Server-Sent Events as the end of a
// line, so an events.jsonl line with one inside ({"a":1,\r"b":2}) reached
// the page cut in two, its first half a message that is not JSON. Such
// data is sent compact (or, were it not JSON, with its line breaks made
// spaces: one message all the same).
func (s *sse) send(event, id string, data []byte) error {
	if bytes.ContainsAny(data, "\r\n") {
		var compact bytes.Buffer
		if json.Compact(&compact, data) == nil {
			data = compact.Bytes()
		} else {
			data = bytes.Map(func(r rune) rune {
				if r == '\r' || r == '\n' {
					return ' '
				}
				return r
			}, data)
		}
	}
	var b bytes.Buffer
	if event != "" {
		fmt.Fprintf(&b, "event: %s\n", event)
	}
	if id != "" {
		fmt.Fprintf(&b, "id: %s\n", id)
	}
	b.WriteString("data: ")
	b.Write(data)
	b.WriteString("\n\n")
	if _, err := s.w.Write(b.Bytes()); err != nil {
		return err
	}
	s.f.Flush()
	return nil
}

func (s *sse) sendJSON(event string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return s.send(event, "", data)
}

func (s *sse) sendError(err error) {
	ce := clierr.As(err)
	_ = s.sendJSON("failure", clierr.Envelope{Error: clierr.EnvelopeBody{Code: ce.Code, Message: ce.Message, Details: ce.Details}})
}

// streamRun streams one run: a "run" event with the run as it is, each
// event of its log as an unnamed message whose id is its line number (so a
// reconnecting browser resumes after Last-Event-ID), a "timeline" event
// (runs.Timeline) at most once per poll while events come, and once the run
// is no longer running, its whole "timeline", a "run" event with how it
// ended and an "end" event. A
// finished run thus replays from its record alone and ends at once.
func (s *Server) streamRun(w http.ResponseWriter, r *http.Request) {
	id, err := s.store.Resolve(r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	v, err := s.run(id)
	if err != nil {
		writeError(w, err)
		return
	}
	out, err := newSSE(w)
	if err != nil {
		writeError(w, err)
		return
	}
	if out.sendJSON("run", v) != nil {
		return
	}
	skip, _ := strconv.Atoi(r.Header.Get("Last-Event-ID"))
	feed := &runFeed{out: out, b: runs.NewTimelineBuilder(v.Run), skip: skip}
	// A finished run's log is replayed at once: its one timeline follows.
	stopTimelines := func() {}
	if v.Status == records.StatusRunning {
		stopTimelines = feed.sendTimelines(r.Context(), s.poll)
	}
	err = s.store.Logs(r.Context(), id, runs.LogOptions{Follow: true, Poll: s.poll}, feed.line)
	stopTimelines()
	if r.Context().Err() != nil {
		return
	}
	if err != nil {
		out.sendError(err)
		return
	}
	// The run has ended: its timeline, read whole, now spans to its end.
	tl, err := s.store.Timeline(id)
	if err != nil {
		out.sendError(err)
		return
	}
	if v, err = s.run(id); err != nil {
		out.sendError(err)
		return
	}
	if out.sendJSON("timeline", tl) == nil && out.sendJSON("run", v) == nil {
		_ = out.send("end", "", []byte("{}"))
	}
}

// streamList streams the runs list (filtered like GET /api/runs) as "runs"
// events: one at once, then one whenever a run appears, goes or changes.
func (s *Server) streamList(w http.ResponseWriter, r *http.Request) {
	f, err := filter(r)
	if err != nil {
		writeError(w, err)
		return
	}
	out, err := newSSE(w)
	if err != nil {
		writeError(w, err)
		return
	}
	tick := time.NewTicker(s.poll)
	defer tick.Stop()
	var last []byte
	for {
		v, err := s.list(f)
		if err != nil {
			out.sendError(err)
			return
		}
		if fp := fingerprint(v); !bytes.Equal(fp, last) {
			if out.sendJSON("runs", v) != nil {
				return
			}
			last = fp
		}
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
		}
	}
}

// fingerprint is the list without what changes by the clock alone (the
// duration of running runs, which the page counts itself).
func fingerprint(v listView) []byte {
	rs := make([]runs.Run, len(v.Runs))
	for i, r := range v.Runs {
		if r.Status == records.StatusRunning {
			r.DurationMs = 0
		}
		rs[i] = r
	}
	v.Runs = rs
	b, _ := json.Marshal(v)
	return b
}
