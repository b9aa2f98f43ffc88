package fakemodel

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// sseWriter writes Server-Sent Events and flushes each one, so the client
// sees every event as soon as it is written (as with the real APIs).
type sseWriter struct {
	w  io.Writer
	fl http.Flusher
}

func newSSEWriter(w http.ResponseWriter) *sseWriter {
	fl, _ := w.(http.Flusher)
	return &sseWriter{w: w, fl: fl}
}

// event writes one event; an empty name writes a data-only event (the
// Chat Completions style).
func (s *sseWriter) event(name string, data any) error {
	b, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("encode %s event: %w", name, err)
	}
	return s.raw(name, string(b))
}

// raw writes one event whose data is already serialized (e.g. "[DONE]").
func (s *sseWriter) raw(name, data string) error {
	var b strings.Builder
	if name != "" {
		b.WriteString("event: " + name + "\n")
	}
	for _, line := range strings.Split(data, "\n") {
		b.WriteString("data: " + line + "\n")
	}
	b.WriteString("\n")
	if _, err := io.WriteString(s.w, b.String()); err != nil {
		return err
	}
	if s.fl != nil {
		s.fl.Flush()
	}
	return nil
}

// SSEEvent is one parsed Server-Sent Event.
type SSEEvent struct {
	Event string // the event: field ("" when absent)
	Data  string // data: lines joined with "\n"
}

// ReadSSE parses a whole event stream (as the SSE specification frames it:
// field lines, events ended by a blank line, ":" comments ignored). A final
// event without its blank line is an error: the stream was cut.
func ReadSSE(r io.Reader) ([]SSEEvent, error) {
	var out []SSEEvent
	var cur SSEEvent
	var data []string
	pending := false
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 64*1024*1024)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if line == "" {
			if pending {
				cur.Data = strings.Join(data, "\n")
				out = append(out, cur)
			}
			cur, data, pending = SSEEvent{}, nil, false
			continue
		}
		if strings.HasPrefix(line, ":") {
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "event":
			cur.Event, pending = value, true
		case "data":
			data, pending = append(data, value), true
		}
	}
	if err := sc.Err(); err != nil {
		return out, err
	}
	if pending {
		return out, errors.New("stream ended inside an event (no blank line after it)")
	}
	return out, nil
}

// startStream writes the headers of an SSE response; idHeader names the
// request-ID header of the API being faked.
func startStream(w http.ResponseWriter, idHeader string, seq int) *sseWriter {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set(idHeader, requestID(seq))
	w.WriteHeader(http.StatusOK)
	return newSSEWriter(w)
}

// writeEvents writes events, waiting delay between two content deltas, and
// returns the outcome to log when the stream was cut short ("" when every
// event was written).
func (f *Fake) writeEvents(ctx context.Context, sse *sseWriter, delay time.Duration, events []sseEvent) string {
	sentDelta := false
	for _, ev := range events {
		if ev.delta && sentDelta {
			if out := f.wait(ctx, delay); out != "" {
				return out
			}
		}
		sentDelta = sentDelta || ev.delta
		if err := sse.event(ev.name, ev.data); err != nil {
			return OutcomeClientGone
		}
	}
	return ""
}
