package mcpserve

import (
	"context"
	"net/http"
	"sync"
)

// sessionIDHeader carries a streamable HTTP session's ID.
const sessionIDHeader = "Mcp-Session-Id"

// sessionRuns holds, by session ID, the cancellations of the runs each
// HTTP session started, so that the session's end cancels them. The SDK
// ends a session (DELETE) only once its calls have returned, and
// run_workflow returns when its run ends: without this the DELETE would
// wait for the run and the run would go on to succeed.
type sessionRuns struct {
	mu   sync.Mutex
	next uint64
	runs map[string]map[uint64]context.CancelFunc
}

// add records a run of the session and returns what forgets it once it
// has ended. Stdio's session (ID "") ends with the server, which cancels
// every run itself.
func (r *sessionRuns) add(session string, cancel context.CancelFunc) (forget func()) {
	if session == "" {
		return func() {}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.runs == nil {
		r.runs = map[string]map[uint64]context.CancelFunc{}
	}
	if r.runs[session] == nil {
		r.runs[session] = map[uint64]context.CancelFunc{}
	}
	r.next++
	key := r.next
	r.runs[session][key] = cancel
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		delete(r.runs[session], key)
		if len(r.runs[session]) == 0 {
			delete(r.runs, session)
		}
	}
}

// end cancels the runs of the session.
func (r *sessionRuns) end(session string) {
	r.mu.Lock()
	runs := r.runs[session]
	delete(r.runs, session)
	r.mu.Unlock()
	for _, cancel := range runs {
		cancel()
	}
}

// endingSessions cancels a session's runs when its client ends it
// (DELETE), before the SDK closes the session.
func (s *Server) endingSessions(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if id := r.Header.Get(sessionIDHeader); r.Method == http.MethodDelete && id != "" {
			s.sessions.end(id)
		}
		next.ServeHTTP(w, r)
	})
}
