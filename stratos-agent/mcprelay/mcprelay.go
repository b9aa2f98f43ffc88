// Package mcprelay is the agent host's loopback relay to the MCP servers
// workflows declare with oauth. A harness (Claude Code, Codex, OpenCode)
// keeps one process and one MCP connection for many agent requests, and
// reads its MCP configuration once: a bearer token written into that
// configuration would expire under a long run. So the harness is given a
// relay URL on 127.0.0.1 instead, and the relay puts the current access
// token on every request it forwards, refreshing it when it has less than
// five minutes left (shared/mcpauth). Credentials are thereby rechecked
// before every request the harness sends, and no token is ever written
// into a harness's files or command line.
//
// Other users of the machine and web pages in the user's browser can
// reach a loopback port too, so each route's path is a random secret
// (compared in constant time; the harness's MCP configuration holds it,
// and no header need be configured), and every request must name the
// relay in Host and come from no other origin or site
// (shared/loopbackguard): a DNS-rebinding page or a cross-site request is
// refused before any route is looked at.
package mcprelay

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/loopbackguard"
	"github.com/stratoscli/stratos/shared/mcpauth"
	"github.com/stratoscli/stratos/shared/mcpdecl"
)

// Relay forwards harness requests to OAuth MCP servers with a fresh token.
// It listens from the first Route on until Close.
type Relay struct {
	tokens mcpauth.Tokens
	log    hclog.Logger

	mu     sync.Mutex
	srv    *http.Server
	base   string
	routes map[string]route  // path segment → route
	byKey  map[string]string // workflow + server identity → path segment
	closed bool
}

type route struct {
	workflow string
	server   mcpdecl.Server
	target   *url.URL
	proxy    *httputil.ReverseProxy
}

// New returns a relay that takes tokens from tokens.
func New(tokens mcpauth.Tokens, log hclog.Logger) *Relay {
	if log == nil {
		log = hclog.NewNullLogger()
	}
	return &Relay{tokens: tokens, log: log, routes: map[string]route{}, byKey: map[string]string{}}
}

// Route returns the URL a harness uses for server (resolved, declared
// with oauth) of workflow. It fails, naming the login command, when the
// server has no usable login, so an agent fails at its start rather than
// at its first tool call.
func (r *Relay) Route(ctx context.Context, workflow string, server mcpdecl.Server) (string, error) {
	if _, err := r.tokens.ForServer(ctx, workflow, server, false); err != nil {
		return "", err
	}
	target, err := url.Parse(server.URL)
	if err != nil {
		return "", fmt.Errorf("MCP server %q: %w", server.Name, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.listenLocked(); err != nil {
		return "", err
	}
	key := workflow + "\n" + server.Name + "\n" + server.URL + "\n" + server.OAuth.ClientID
	seg, ok := r.byKey[key]
	if !ok {
		seg = strings.ToLower(rand.Text())
		rt := route{workflow: workflow, server: server, target: target}
		rt.proxy = &httputil.ReverseProxy{
			Rewrite: func(pr *httputil.ProxyRequest) {
				u := *rt.target
				pr.Out.URL, pr.Out.Host = &u, ""
			},
			FlushInterval:  -1, // server-sent events pass at once
			ErrorLog:       r.log.StandardLogger(&hclog.StandardLoggerOptions{InferLevels: true}),
			ModifyResponse: r.noteStepUp(workflow, server),
		}
		r.routes[seg], r.byKey[key] = rt, seg
	}
	return r.base + "/" + seg, nil
}

func (r *Relay) listenLocked() error {
	if r.closed {
		return errors.New("the MCP relay is closed")
	}
	if r.srv != nil {
		return nil
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("start the MCP relay: %w", err)
	}
	r.base = "http://" + ln.Addr().String()
	r.srv = &http.Server{Handler: loopbackguard.Guard{}.Wrap(http.HandlerFunc(r.serve)), ReadHeaderTimeout: 30 * time.Second}
	go func() { _ = r.srv.Serve(ln) }()
	return nil
}

// serve forwards one harness request with the current token; without one
// it answers 401 with the reason (the harness reports it as a failed tool
// or server).
func (r *Relay) serve(w http.ResponseWriter, req *http.Request) {
	rt, ok := r.route(strings.Trim(req.URL.Path, "/"))
	if !ok {
		http.NotFound(w, req)
		return
	}
	rec, err := r.tokens.ForServer(req.Context(), rt.workflow, rt.server, false)
	if err != nil {
		r.log.Warn("MCP relay: no usable token", "server", rt.server.Name, "error", err)
		http.Error(w, err.Error(), http.StatusUnauthorized)
		return
	}
	out := req.Clone(req.Context())
	out.Header.Set("Authorization", "Bearer "+rec.AccessToken)
	rt.proxy.ServeHTTP(w, out)
}

// noteStepUp returns the relay's look at each answer of server: a step-up
// (403 insufficient_scope) cannot be answered here, where nobody is at a
// browser, so the harness gets the 403 as sent, and the scopes it asks for
// are noted with the login, for the next `stratos mcp login` to ask for.
func (r *Relay) noteStepUp(workflow string, server mcpdecl.Server) func(*http.Response) error {
	return func(resp *http.Response) error {
		scopes, err := r.tokens.NoteStepUp(server, resp)
		if len(scopes) > 0 {
			r.log.Warn("MCP relay: the server needs more scopes than the login has; log in again", "server", server.Name,
				"scopes", strings.Join(scopes, " "), "login", mcpauth.LoginCommand(workflow, server.Name), "error", err)
		}
		return nil
	}
}

// route finds the route whose path segment is seg. Every segment is
// compared in constant time, so the time of a refusal tells nothing about
// how much of a guess was right.
func (r *Relay) route(seg string) (route, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var found route
	ok := false
	for s, rt := range r.routes {
		if loopbackguard.EqualSecret(seg, s) {
			found, ok = rt, true
		}
	}
	return found, ok
}

// Close stops the relay; requests under way are cut. A nil relay has
// nothing to stop.
func (r *Relay) Close() error {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	if r.srv == nil {
		return nil
	}
	return r.srv.Close()
}
