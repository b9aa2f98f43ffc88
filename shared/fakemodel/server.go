package fakemodel

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Options configure a Fake.
type Options struct {
	// LogFile, when set, receives the request log as JSON Lines, rewritten
	// after every change (see Log).
	LogFile string
}

// Fake answers model API requests from a Script. It is an http.Handler
// source; Start runs one on a loopback port.
type Fake struct {
	queue       *turnQueue
	log         *Log
	countTokens int
	ollama      *Ollama       // nil: not an Ollama server
	models      []string      // the hosted model list (see Script.Models)
	done        chan struct{} // closed by Close: ends delays and streams
	closeOnce   sync.Once
}

// New returns a Fake for script s.
func New(s Script, opts Options) (*Fake, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	n := s.CountTokens
	if n == 0 {
		n = 100
	}
	return &Fake{queue: newTurnQueue(s), log: newLog(opts.LogFile), countTokens: n, ollama: s.Ollama, models: s.Models, done: make(chan struct{})}, nil
}

// Handler serves every API the fake speaks: one handler type per API, each
// registering its own routes.
func (f *Fake) Handler() http.Handler {
	mux := http.NewServeMux()
	anthropicAPI{f}.register(mux)
	responsesAPI{f}.register(mux)
	chatAPI{f}.register(mux)
	geminiAPI{f}.register(mux)
	if f.models != nil {
		modelsAPI{f}.register(mux)
	}
	if f.ollama != nil {
		ollamaAPI{f}.register(mux)
		ollamaChatAPI{f}.register(mux)
	}
	mux.HandleFunc("/", f.notFound)
	return mux
}

// IsOllama reports whether the script made the fake an Ollama server.
func (f *Fake) IsOllama() bool { return f.ollama != nil }

// PullOllama adds a model to the inventory of a fake that is an Ollama
// server (Ollama.Pull).
func (f *Fake) PullOllama(name string) error {
	if f.ollama == nil {
		return fmt.Errorf("pull %s: the script has no ollama inventory", name)
	}
	return f.ollama.Pull(name)
}

// Log is the request log.
func (f *Fake) Log() *Log { return f.log }

// UnusedTurns returns the 1-based indexes of turns that still have uses
// left (repeating turns are never reported): a test can check that its
// whole script was played.
func (f *Fake) UnusedTurns() []int { return f.queue.remaining() }

// Close ends pending delays and streams; their requests are logged as
// server_closed.
func (f *Fake) Close() { f.closeOnce.Do(func() { close(f.done) }) }

// wait sleeps d unless the client goes away or the fake closes first; it
// returns "" when the full time passed, else the outcome to log.
func (f *Fake) wait(ctx context.Context, d time.Duration) string {
	if d <= 0 {
		return f.interrupted(ctx)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return ""
	case <-ctx.Done():
		return OutcomeClientGone
	case <-f.done:
		return OutcomeServerClose
	}
}

// interrupted reports, without waiting, whether the request should stop.
func (f *Fake) interrupted(ctx context.Context) string {
	select {
	case <-f.done:
		return OutcomeServerClose
	case <-ctx.Done():
		return OutcomeClientGone
	default:
		return ""
	}
}

// notFound answers any route no API claims. HEAD requests (connectivity
// probes such as Claude Code's HEAD /api/hello) get an empty 200.
func (f *Fake) notFound(w http.ResponseWriter, r *http.Request) {
	body, _ := readBody(w, r)
	e := newEntry(r, "", Facts{}, body)
	if r.Method == http.MethodHead {
		seq := f.log.add(e)
		w.WriteHeader(http.StatusOK)
		f.log.finish(seq, http.StatusOK, OutcomeCompleted)
		return
	}
	seq := f.log.add(e)
	writeAnthropicError(w, seq, resolvedError{Status: 404, Type: "not_found_error",
		Message: fmt.Sprintf("fakemodel: no route for %s %s", r.Method, r.URL.Path)})
	f.log.finish(seq, 404, OutcomeError)
}

// maxBody bounds a request body; harness requests with long histories and
// tool schemas stay far below it.
const maxBody = 256 << 20

func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if r.Body == nil {
		return nil, nil
	}
	return io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
}

// newEntry starts a log entry for request r.
func newEntry(r *http.Request, api string, facts Facts, body []byte) Entry {
	return Entry{API: api, Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Facts: facts, Headers: loggedHeaders(r.Header),
		Auth: authKind(r.Header), Outcome: OutcomePending, Body: jsonOrNil(body)}
}

// loggedHeaders returns the request headers minus every header whose name
// suggests a credential, so a log never holds one.
func loggedHeaders(h http.Header) map[string]string {
	out := make(map[string]string, len(h))
	for k, v := range h {
		lk := strings.ToLower(k)
		if strings.Contains(lk, "key") || strings.Contains(lk, "auth") || strings.Contains(lk, "token") ||
			strings.Contains(lk, "secret") || strings.Contains(lk, "cookie") {
			continue
		}
		out[lk] = strings.Join(v, ", ")
	}
	return out
}

func authKind(h http.Header) string {
	switch {
	case h.Get("X-Api-Key") != "":
		return "x-api-key"
	case strings.HasPrefix(strings.ToLower(h.Get("Authorization")), "bearer "):
		return "bearer"
	case h.Get("Authorization") != "":
		return "other"
	}
	return "none"
}

// Server is a Fake listening on a loopback port.
type Server struct {
	*Fake
	// URL is the base URL, e.g. http://127.0.0.1:41234 (what
	// ANTHROPIC_BASE_URL wants: no trailing /v1).
	URL string
	srv *http.Server
	ln  net.Listener
	// served reports the end of Serve.
	served    chan error
	closeOnce sync.Once
	closeErr  error
}

// Start runs a Fake for s on 127.0.0.1 at a free port.
func Start(s Script, opts Options) (*Server, error) {
	f, err := New(s, opts)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("fakemodel: listen: %w", err)
	}
	srv := &http.Server{Handler: f.Handler(), ReadHeaderTimeout: 30 * time.Second}
	s2 := &Server{Fake: f, URL: "http://" + ln.Addr().String(), srv: srv, ln: ln, served: make(chan error, 1)}
	go func() { s2.served <- srv.Serve(ln) }()
	return s2, nil
}

// Addr is the host:port the server listens on.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Close ends pending replies, stops the server once every handler has
// returned (so the log is final), and returns the first log-file error.
// Calling it again returns the same result.
func (s *Server) Close() error {
	s.closeOnce.Do(func() { s.closeErr = s.shutdown() })
	return s.closeErr
}

func (s *Server) shutdown() error {
	s.Fake.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if serr := <-s.served; serr != nil && !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	if lerr := s.log.Err(); lerr != nil {
		return lerr
	}
	return err
}
