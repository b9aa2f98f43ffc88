// Package fakeoauth is the OAuth authorization server Stratos's tests log in
// to, on loopback: authorization-server metadata (RFC 8414), dynamic client
// registration (RFC 7591), an /authorize endpoint that approves at once
// (no person in a test) and redirects with a code, a /token endpoint that
// verifies PKCE (S256) and renews tokens with the refresh_token grant. It
// also guards an MCP endpoint as a protected resource (RFC 9728): metadata
// under /.well-known/oauth-protected-resource/<path> and a 401 with a
// WWW-Authenticate challenge for a missing, unknown or expired bearer.
//
// Tokens are random with recognizable prefixes (PrefixAccess,
// PrefixRefresh) so a test can prove none reached a log or an output.
package fakeoauth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// Token prefixes: a test greps outputs for them.
const (
	PrefixAccess  = "fake-access-"
	PrefixRefresh = "fake-refresh-"
)

// PreregisteredClient is a client the server knows without registration
// (for declarations with clientId).
const PreregisteredClient = "stratos-test-client"

// Options configure the server.
type Options struct {
	// TokenLifetime is the lifetime of tokens issued for a code (default
	// one hour).
	TokenLifetime time.Duration
	// RefreshedLifetime is the lifetime of refreshed tokens (default
	// TokenLifetime).
	RefreshedLifetime time.Duration
	// NoRefresh issues no refresh tokens.
	NoRefresh bool
	// NoRegistration offers no dynamic registration; only
	// PreregisteredClient can log in.
	NoRegistration bool
	// Log receives one line per request: method, path and, for /token,
	// the grant type; never a token.
	Log io.Writer
}

// Server is the authorization server and the guard of one MCP endpoint.
type Server struct {
	o      Options
	issuer string

	mu      sync.Mutex
	logMu   sync.Mutex
	clients map[string][]string // client ID → redirect URIs
	codes   map[string]grant
	access  map[string]time.Time // access token → expiry
	refresh map[string]string    // refresh token → client ID
}

type grant struct {
	clientID, redirectURI, challenge string
}

// New returns a server whose issuer is issuer (its origin, e.g.
// http://127.0.0.1:1234).
func New(issuer string, o Options) *Server {
	if o.TokenLifetime == 0 {
		o.TokenLifetime = time.Hour
	}
	if o.RefreshedLifetime == 0 {
		o.RefreshedLifetime = o.TokenLifetime
	}
	return &Server{o: o, issuer: strings.TrimSuffix(issuer, "/"),
		clients: map[string][]string{PreregisteredClient: nil},
		codes:   map[string]grant{}, access: map[string]time.Time{}, refresh: map[string]string{}}
}

// Mount adds the authorization server's endpoints to mux and guards
// the MCP handler at path (e.g. "/mcp") with bearer tokens.
func (s *Server) Mount(mux *http.ServeMux, path string, mcp http.Handler) {
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", s.metadata)
	mux.HandleFunc("GET /.well-known/oauth-protected-resource"+path, s.resourceMetadata(path))
	if !s.o.NoRegistration {
		mux.HandleFunc("POST /register", s.register)
	}
	mux.HandleFunc("GET /authorize", s.authorize)
	mux.HandleFunc("POST /token", s.token)
	mux.Handle(path, s.guard(path, mcp))
}

func (s *Server) log(r *http.Request, extra string) {
	if s.o.Log == nil {
		return
	}
	line := r.Method + " " + r.URL.Path
	if extra != "" {
		line += " " + extra
	}
	s.logMu.Lock()
	defer s.logMu.Unlock()
	_, _ = io.WriteString(s.o.Log, line+"\n")
}

func (s *Server) metadata(w http.ResponseWriter, r *http.Request) {
	s.log(r, "")
	meta := map[string]any{
		"issuer":                                s.issuer,
		"authorization_endpoint":                s.issuer + "/authorize",
		"token_endpoint":                        s.issuer + "/token",
		"response_types_supported":              []string{"code"},
		"grant_types_supported":                 []string{"authorization_code", "refresh_token"},
		"code_challenge_methods_supported":      []string{"S256"},
		"token_endpoint_auth_methods_supported": []string{"none"},
		"scopes_supported":                      []string{"tools", "offline_access"},
	}
	if !s.o.NoRegistration {
		meta["registration_endpoint"] = s.issuer + "/register"
	}
	writeJSON(w, http.StatusOK, meta)
}

func (s *Server) resourceMetadata(path string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.log(r, "")
		writeJSON(w, http.StatusOK, map[string]any{
			"resource":              s.issuer + path,
			"authorization_servers": []string{s.issuer},
			"scopes_supported":      []string{"tools"},
		})
	}
}

// guard lets requests with a valid bearer through to next.
func (s *Server) guard(path string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		s.mu.Lock()
		expiry, known := s.access[token]
		s.mu.Unlock()
		switch {
		case !ok || !known:
			s.log(r, "401 no valid bearer")
		case time.Now().After(expiry):
			s.log(r, "401 expired bearer")
			known = false
		default:
			s.log(r, "bearer ok")
		}
		if !known {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+s.issuer+"/.well-known/oauth-protected-resource"+path+`", scope="tools"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	s.log(r, "")
	var meta struct {
		RedirectURIs []string `json:"redirect_uris"`
	}
	if err := json.NewDecoder(r.Body).Decode(&meta); err != nil || len(meta.RedirectURIs) == 0 {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_client_metadata"})
		return
	}
	id := "client-" + rand.Text()
	s.mu.Lock()
	s.clients[id] = meta.RedirectURIs
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, map[string]any{"client_id": id, "redirect_uris": meta.RedirectURIs,
		"token_endpoint_auth_method": "none", "grant_types": []string{"authorization_code", "refresh_token"}})
}

// authorize approves at once: it checks the client, the redirect URI and
// the PKCE challenge, and redirects back with a code and the state.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	s.log(r, "")
	q := r.URL.Query()
	clientID, redirect, challenge := q.Get("client_id"), q.Get("redirect_uri"), q.Get("code_challenge")
	s.mu.Lock()
	uris, known := s.clients[clientID]
	s.mu.Unlock()
	switch {
	case !known:
		http.Error(w, "unknown client_id", http.StatusBadRequest)
		return
	case !strings.HasPrefix(redirect, "http://127.0.0.1:"):
		http.Error(w, "redirect_uri must be a loopback URL", http.StatusBadRequest)
		return
	case uris != nil && !slices.Contains(uris, redirect):
		http.Error(w, "redirect_uri not registered", http.StatusBadRequest)
		return
	case challenge == "" || q.Get("code_challenge_method") != "S256" || q.Get("response_type") != "code":
		http.Error(w, "PKCE S256 and response_type=code are required", http.StatusBadRequest)
		return
	}
	code := "code-" + rand.Text()
	s.mu.Lock()
	s.codes[code] = grant{clientID: clientID, redirectURI: redirect, challenge: challenge}
	s.mu.Unlock()
	http.Redirect(w, r, redirect+"?code="+code+"&state="+q.Get("state"), http.StatusFound)
}

func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_request"})
		return
	}
	kind := r.PostForm.Get("grant_type")
	s.log(r, "grant="+kind)
	switch kind {
	case "authorization_code":
		s.exchangeCode(w, r)
	case "refresh_token":
		s.refreshToken(w, r)
	default:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type"})
	}
}

func (s *Server) exchangeCode(w http.ResponseWriter, r *http.Request) {
	f := r.PostForm
	s.mu.Lock()
	g, ok := s.codes[f.Get("code")]
	delete(s.codes, f.Get("code"))
	s.mu.Unlock()
	sum := sha256.Sum256([]byte(f.Get("code_verifier")))
	switch {
	case !ok || g.clientID != requestClientID(r) || g.redirectURI != f.Get("redirect_uri"):
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
	case base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant", "error_description": "PKCE verification failed"})
	default:
		s.issue(w, g.clientID, s.o.TokenLifetime)
	}
}

func (s *Server) refreshToken(w http.ResponseWriter, r *http.Request) {
	old := r.PostForm.Get("refresh_token")
	s.mu.Lock()
	clientID, ok := s.refresh[old]
	delete(s.refresh, old) // single use, as strict servers rotate them
	s.mu.Unlock()
	if !ok || clientID != requestClientID(r) {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
		return
	}
	s.issue(w, clientID, s.o.RefreshedLifetime)
}

func (s *Server) issue(w http.ResponseWriter, clientID string, lifetime time.Duration) {
	access := PrefixAccess + rand.Text()
	out := map[string]any{"access_token": access, "token_type": "Bearer", "expires_in": int(lifetime.Seconds()), "scope": "tools"}
	s.mu.Lock()
	s.access[access] = time.Now().Add(lifetime)
	if !s.o.NoRefresh {
		refresh := PrefixRefresh + rand.Text()
		s.refresh[refresh] = clientID
		out["refresh_token"] = refresh
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}

// requestClientID is the client of a token request: in the form, or as
// the user of HTTP Basic authentication (client_secret_basic, which
// clients try first when the server does not say).
func requestClientID(r *http.Request) string {
	if id := r.PostForm.Get("client_id"); id != "" {
		return id
	}
	id, _, _ := r.BasicAuth()
	return id
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
