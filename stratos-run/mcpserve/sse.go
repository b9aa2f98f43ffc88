package mcpserve

import (
	"io"
	"net/http"
	"strconv"
	"strings"
)

// sseRetryMs is the reconnection delay each SSE stream advises its client
// (the SSE `retry` field): a stream cut short (a proxy, a sleeping
// laptop) is resumed from the last event ID after a second, from the event
// store that also sends each stream's priming event.
const sseRetryMs = 1000

// eventStoreBytes bounds the events kept for resuming streams.
const eventStoreBytes = 10 << 20

// advisingRetry starts every SSE response with a `retry` field alone, which
// sets the client's reconnection delay and dispatches no event (the SDK
// writes `retry` only when it closes a stream itself).
func advisingRetry(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(&retryWriter{ResponseWriter: w}, r)
	})
}

type retryWriter struct {
	http.ResponseWriter
	started bool
}

func (w *retryWriter) WriteHeader(code int) {
	w.ResponseWriter.WriteHeader(code)
	if w.started {
		return
	}
	w.started = true
	if code == http.StatusOK && strings.HasPrefix(w.Header().Get("Content-Type"), "text/event-stream") {
		_, _ = io.WriteString(w.ResponseWriter, "retry: "+strconv.Itoa(sseRetryMs)+"\n\n")
	}
}

func (w *retryWriter) Write(p []byte) (int, error) {
	if !w.started {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(p)
}

// Unwrap lets the SDK flush each event through http.ResponseController.
func (w *retryWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
