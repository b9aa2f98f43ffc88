// Package serve is `stratos serve`: an HTTP server that shows the run records
// of a runs.Store as a small page app embedded in the binary (no CDN, works
// offline). It reads the records only through package runs (list, show,
// follow, stop), streams them to the page with Server-Sent Events, and stops
// runs only for requests that pass writeGuard.
package serve

import (
	"crypto/rand"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/stratos-run/records"
	"github.com/stratoscli/stratos/stratos-run/runs"
)

//go:embed app
var appFS embed.FS

// DefaultPoll is how often a stream looks at the records for changes.
const DefaultPoll = 250 * time.Millisecond

// Options configures a Server.
type Options struct {
	Store *runs.Store
	// Loopback says the server listens on a loopback address only; without
	// it every write is refused.
	Loopback bool
	// Token is the per-server secret every write must carry; a random one
	// when empty.
	Token string
	// ReadToken is the secret every request must carry (see guard); a
	// random one when empty.
	ReadToken string
	// Port names the read token's cookie (see guard.cookie).
	Port int
	// Poll is how often streams look for changes (DefaultPoll if 0).
	Poll time.Duration
	// StopWait bounds how long a Stop waits for the run to end
	// (runs.DefaultStopWait if 0).
	StopWait time.Duration
}

// Server serves the page app and its API.
type Server struct {
	store    *runs.Store
	guard    guard
	poll     time.Duration
	stopWait time.Duration
	index    *template.Template
	static   http.Handler
}

// New returns a Server for opts.
func New(opts Options) (*Server, error) {
	token, readToken := opts.Token, opts.ReadToken
	if token == "" {
		token = randomToken()
	}
	if readToken == "" {
		readToken = randomToken()
	}
	poll := opts.Poll
	if poll == 0 {
		poll = DefaultPoll
	}
	app, err := fs.Sub(appFS, "app")
	if err != nil {
		return nil, err
	}
	index, err := template.ParseFS(app, "index.html")
	if err != nil {
		return nil, err
	}
	return &Server{
		store: opts.Store,
		guard: guard{loopback: opts.Loopback, token: token, readToken: readToken, cookie: fmt.Sprintf("stratos_read_%d", opts.Port)},
		poll:  poll, stopWait: opts.StopWait, index: index, static: http.FileServerFS(app),
	}, nil
}

// randomToken returns 128 random bits in hex.
func randomToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand's documented contract)
	return hex.EncodeToString(b[:])
}

// PageURL is the address to print for a server listening on addr
// (host:port). It carries the read token, which the first load trades for
// a cookie.
func (s *Server) PageURL(addr string) string {
	u := url.URL{Scheme: "http", Host: addr, Path: "/", RawQuery: url.Values{ReadTokenParam: {s.guard.readToken}}.Encode()}
	return u.String()
}

// Handler routes the page app and the API; every request passes the guard
// (reads included: see guard).
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.page)
	mux.Handle("GET /app/", http.StripPrefix("/app", pageFiles(s.static)))
	mux.HandleFunc("GET /api/runs", s.listRuns)
	mux.HandleFunc("GET /api/runs/stream", s.streamList)
	mux.HandleFunc("GET /api/runs/{id}", s.showRun)
	mux.HandleFunc("GET /api/runs/{id}/events", s.streamRun)
	mux.HandleFunc("GET /api/runs/{id}/timeline", s.showTimeline)
	mux.HandleFunc("POST /api/runs/{id}/stop", s.stopRun)
	mux.Handle("/api/", apiElse(mux))
	return securityHeaders(s.guardReads(mux))
}

// apiElse answers what no route of the API takes, a path it does not have
// or a method its path does not take, with the error envelope every other
// answer of the API carries, not the mux's plain text ("404 page not
// found"), which a program reading JSON cannot parse.
func apiElse(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var allowed []string
		for _, m := range []string{http.MethodGet, http.MethodPost} {
			probe := r.Clone(r.Context())
			probe.Method = m
			if _, pattern := mux.Handler(probe); pattern != "" && pattern != "/api/" {
				allowed = append(allowed, m)
			}
		}
		if len(allowed) == 0 {
			writeJSON(w, http.StatusNotFound, envelope(runapi.CodeServeRequestInvalid, fmt.Sprintf("no endpoint %s: the API serves /api/runs, /api/runs/stream, /api/runs/<id>, /api/runs/<id>/events, /api/runs/<id>/timeline and /api/runs/<id>/stop", r.URL.Path), nil))
			return
		}
		w.Header().Set("Allow", strings.Join(allowed, ", "))
		writeJSON(w, http.StatusMethodNotAllowed, envelope(runapi.CodeServeRequestInvalid, fmt.Sprintf("%s %s: the endpoint takes %s", r.Method, r.URL.Path, strings.Join(allowed, ", ")),
			map[string]any{"method": r.Method, "allowed": allowed}))
	})
}

func envelope(code, message string, details map[string]any) clierr.Envelope {
	return clierr.Envelope{Error: clierr.EnvelopeBody{Code: code, Message: message, Details: details}}
}

// guardReads refuses every request the guard would not let read, before
// any route sees it (an unknown path answers 403, not 404, to a stranger).
// A page load that presented the read token in its URL gets the token as
// a cookie and is redirected to the same page without it.
func (s *Server) guardReads(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if why := s.guard.readRefusal(r); why != "" {
			code := runapi.CodeServeReadRefused
			if r.Method != http.MethodGet && r.Method != http.MethodHead {
				code = runapi.CodeServeWriteRefused
			}
			writeError(w, clierr.New(code, "refused: %s", why))
			return
		}
		if r.URL.Path == "/" && r.URL.Query().Has(ReadTokenParam) {
			http.SetCookie(w, &http.Cookie{
				Name: s.guard.cookie, Value: s.guard.readToken, Path: "/",
				HttpOnly: true, SameSite: http.SameSiteStrictMode,
			})
			http.Redirect(w, r, "/", http.StatusSeeOther)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// pageFiles serves the page's own files, each with its fixed type, and
// answers 404 to any other path: the directory itself, index.html (the
// page is served at /), a name that is not UTF-8 (which the embedded file
// system refuses with an error the file server turns into 500). The type
// is not looked up in the machine's MIME tables, which name .ts files a
// Qt translation on some systems.
func pageFiles(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		typ, ok := pageFileTypes[strings.TrimPrefix(r.URL.Path, "/")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", typ)
		next.ServeHTTP(w, r)
	})
}

// pageFileTypes are the page's files under /app/ and their types
// (events.d.ts: the types app.js is checked against, for readers).
var pageFileTypes = map[string]string{
	"app.js":      "text/javascript; charset=utf-8",
	"style.css":   "text/css; charset=utf-8",
	"events.d.ts": "text/plain; charset=utf-8",
}

// securityHeaders keeps the page from being framed or fed foreign scripts.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		next.ServeHTTP(w, r)
	})
}

func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	data := struct {
		Token    string
		Writable bool
		Statuses []string
	}{s.guard.token, s.guard.loopback, records.Statuses}
	if err := s.index.Execute(w, data); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// filter reads ?status= and ?workflow=; an unknown status is a usage error.
func filter(r *http.Request) (runs.Filter, error) {
	f := runs.Filter{Status: r.URL.Query().Get("status"), Workflow: r.URL.Query().Get("workflow")}
	if f.Status != "" && !slices.Contains(records.Statuses, f.Status) {
		return f, clierr.Usage(runapi.CodeServeRequestInvalid, "unknown status %q", f.Status).
			WithDetails(map[string]any{"status": f.Status, "statuses": records.Statuses})
	}
	return f, nil
}

// listView is the JSON of the runs list.
type listView struct {
	Runs []runs.Run `json:"runs"`
	// Problems are records that could not be read (skipped).
	Problems []string `json:"problems"`
}

func (s *Server) list(f runs.Filter) (listView, error) {
	rs, problems, err := s.store.List(f)
	v := listView{Runs: rs, Problems: []string{}}
	if v.Runs == nil {
		v.Runs = []runs.Run{}
	}
	for _, p := range problems {
		v.Problems = append(v.Problems, p.Error())
	}
	return v, err
}

func (s *Server) listRuns(w http.ResponseWriter, r *http.Request) {
	f, err := filter(r)
	if err != nil {
		writeError(w, err)
		return
	}
	v, err := s.list(f)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// runView is one run for the page: what `runs show` says, plus the
// invocation tree the runtime left when it finished (null before).
type runView struct {
	*runs.Details
	Tree json.RawMessage `json:"tree"`
}

func (s *Server) run(id string) (runView, error) {
	d, err := s.store.Show(id)
	if err != nil {
		return runView{}, err
	}
	return runView{Details: d, Tree: treeOf(d.Dir)}, nil
}

// treeOf returns the run's tree.json as it is, null when there is none or it
// is unreadable: the page then draws the tree from the events alone.
func treeOf(dir string) json.RawMessage {
	data, _, err := records.ReadFile(filepath.Join(dir, records.TreeFile), records.MaxResultSize)
	if err != nil || !json.Valid(data) {
		return json.RawMessage("null")
	}
	return data
}

func (s *Server) showRun(w http.ResponseWriter, r *http.Request) {
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
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) stopRun(w http.ResponseWriter, r *http.Request) {
	if why := s.guard.writeRefusal(r); why != "" {
		writeError(w, clierr.New(runapi.CodeServeWriteRefused, "stop refused: %s", why))
		return
	}
	id, err := s.store.Resolve(r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	run, err := s.store.Stop(r.Context(), id, runs.StopOptions{Wait: s.stopWait})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"run": run})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError answers with the error's JSON envelope (as --json prints it)
// and an HTTP status that matches its kind.
func writeError(w http.ResponseWriter, err error) {
	ce := clierr.As(err)
	code := http.StatusInternalServerError
	switch {
	case ce.Code == runapi.CodeServeWriteRefused || ce.Code == runapi.CodeServeReadRefused:
		code = http.StatusForbidden
	case ce.Code == runapi.CodeRunNotFound:
		code = http.StatusNotFound
	case ce.Exit == clierr.ExitUsage:
		code = http.StatusBadRequest
	case ce.Code == runapi.CodeRunNotRunning || ce.Code == runapi.CodeRunProcessUnconfirmed:
		code = http.StatusConflict
	case errors.Is(err, errStreamingUnsupported):
		code = http.StatusNotImplemented
	}
	writeJSON(w, code, clierr.Envelope{Error: clierr.EnvelopeBody{Code: ce.Code, Message: ce.Message, Details: ce.Details}})
}
