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
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
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

// LegacyIssuerPath is the path of the issuer a Legacy server's metadata
// names under its origin.
const LegacyIssuerPath = "/oauth"

// baseScope is what a challenge without a step-up asks for.
const baseScope = "tools"

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
	// ClientSecret makes PreregisteredClient a confidential client: the
	// token endpoint then wants this secret, by HTTP Basic
	// (client_secret_basic) or in the form (client_secret_post), and
	// answers invalid_client without it.
	ClientSecret string
	// Legacy serves the discovery of a 2025-03-26 server: no
	// protected-resource metadata (the challenge names none) and the
	// authorization server's metadata at the server's origin with an
	// issuer that is not that origin (LegacyIssuerPath under it), which
	// that protocol version allows.
	Legacy bool
	// ClientMetadataURL makes the server advertise client ID metadata
	// documents (client_id_metadata_document_supported) and know this URL
	// as a client. A real server fetches the document and checks the
	// redirect URI against it; on loopback there is no HTTPS to fetch
	// from, so any loopback redirect is taken, as for a registered client.
	ClientMetadataURL string
	// IDToken makes the server also play an enterprise identity provider
	// for cross-app access: IdPTokenPath exchanges this ID token for an
	// ID-JAG, which the token endpoint takes (jwt-bearer grant) from
	// PreregisteredClient for an access token (see idp.go).
	IDToken string
	// StepUpScope is a scope that only tools/call requests need: a token
	// without it may list tools, and a call gets 403 insufficient_scope
	// naming it (the step-up of the MCP authorization spec).
	StepUpScope string
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
	access  map[string]issued
	refresh map[string]issued // refresh token → what it renews
	grants  map[string]string // ID-JAG → the resource it is for
}

type grant struct {
	clientID, redirectURI, challenge, scope string
}

// issued is a token's client, scopes and expiry.
type issued struct {
	clientID, scope string
	expiry          time.Time
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
	clients := map[string][]string{PreregisteredClient: nil}
	if o.ClientMetadataURL != "" {
		clients[o.ClientMetadataURL] = nil
	}
	return &Server{o: o, issuer: strings.TrimSuffix(issuer, "/"), clients: clients,
		codes: map[string]grant{}, access: map[string]issued{}, refresh: map[string]issued{}, grants: map[string]string{}}
}

// Mount adds the authorization server's endpoints to mux and guards
// the MCP handler at path (e.g. "/mcp") with bearer tokens.
func (s *Server) Mount(mux *http.ServeMux, path string, mcp http.Handler) {
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", s.metadata)
	if !s.o.Legacy {
		mux.HandleFunc("GET /.well-known/oauth-protected-resource"+path, s.resourceMetadata(path))
	}
	if !s.o.NoRegistration {
		mux.HandleFunc("POST /register", s.register)
	}
	if s.o.IDToken != "" {
		mux.HandleFunc("POST "+IdPTokenPath, s.exchangeIDToken)
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
	issuer := s.issuer
	if s.o.Legacy {
		issuer += LegacyIssuerPath
	}
	authMethods := []string{"none"}
	if s.o.ClientSecret != "" {
		authMethods = []string{"client_secret_basic", "client_secret_post"}
	}
	meta := map[string]any{
		"issuer":                                issuer,
		"authorization_endpoint":                s.issuer + "/authorize",
		"token_endpoint":                        s.issuer + "/token",
		"response_types_supported":              []string{"code"},
		"grant_types_supported":                 []string{"authorization_code", "refresh_token", "client_credentials", grantJWTBearer},
		"code_challenge_methods_supported":      []string{"S256"},
		"token_endpoint_auth_methods_supported": authMethods,
		"scopes_supported":                      s.scopes("offline_access"),
	}
	if !s.o.NoRegistration {
		meta["registration_endpoint"] = s.issuer + "/register"
	}
	if s.o.ClientMetadataURL != "" {
		meta["client_id_metadata_document_supported"] = true
	}
	writeJSON(w, http.StatusOK, meta)
}

func (s *Server) resourceMetadata(path string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.log(r, "")
		writeJSON(w, http.StatusOK, map[string]any{
			"resource":              s.issuer + path,
			"authorization_servers": []string{s.issuer},
			"scopes_supported":      s.scopes(),
		})
	}
}

// scopes are the scopes the server knows, and extra.
func (s *Server) scopes(extra ...string) []string {
	out := []string{baseScope}
	if s.o.StepUpScope != "" {
		out = append(out, s.o.StepUpScope)
	}
	return append(out, extra...)
}

// guard lets requests with a valid bearer through to next; with a
// StepUpScope, a tools/call needs a token that carries it.
func (s *Server) guard(path string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		s.mu.Lock()
		tok, known := s.access[token]
		s.mu.Unlock()
		switch {
		case !ok || !known:
			s.log(r, "401 no valid bearer")
		case time.Now().After(tok.expiry):
			s.log(r, "401 expired bearer")
			known = false
		case s.o.StepUpScope != "" && !slices.Contains(strings.Fields(tok.scope), s.o.StepUpScope) && callsTool(r):
			s.log(r, "403 insufficient scope")
			w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="`+baseScope+" "+s.o.StepUpScope+`", resource_metadata="`+s.resourceMetadataURL(path)+`"`)
			http.Error(w, "insufficient scope", http.StatusForbidden)
			return
		default:
			s.log(r, "bearer ok")
		}
		if !known {
			challenge := `Bearer scope="` + baseScope + `"`
			if !s.o.Legacy {
				challenge = `Bearer resource_metadata="` + s.resourceMetadataURL(path) + `", scope="` + baseScope + `"`
			}
			w.Header().Set("WWW-Authenticate", challenge)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) resourceMetadataURL(path string) string {
	return s.issuer + "/.well-known/oauth-protected-resource" + path
}

// callsTool reports whether an MCP request is a tools/call; the body is
// put back for the MCP handler.
func callsTool(r *http.Request) bool {
	if r.Method != http.MethodPost || r.Body == nil {
		return false
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	r.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return false
	}
	var msg struct {
		Method string `json:"method"`
	}
	return json.Unmarshal(body, &msg) == nil && msg.Method == "tools/call"
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
	q := r.URL.Query()
	s.log(r, "scope="+strconv.Quote(q.Get("scope")))
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
	s.codes[code] = grant{clientID: clientID, redirectURI: redirect, challenge: challenge, scope: q.Get("scope")}
	s.mu.Unlock()
	http.Redirect(w, r, redirect+"?code="+code+"&state="+q.Get("state"), http.StatusFound)
}

func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_request"})
		return
	}
	kind := r.PostForm.Get("grant_type")
	s.log(r, "grant="+kind+s.clientAuthNote(r))
	if !s.clientAuthenticated(r) {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client"})
		return
	}
	switch kind {
	case "authorization_code":
		s.exchangeCode(w, r)
	case "refresh_token":
		s.refreshToken(w, r)
	case "client_credentials":
		s.clientCredentials(w, r)
	case grantJWTBearer:
		s.jwtBearer(w, r)
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
		scope := g.scope
		if scope == "" {
			scope = baseScope
		}
		s.issue(w, issued{clientID: g.clientID, scope: scope, expiry: time.Now().Add(s.o.TokenLifetime)})
	}
}

func (s *Server) refreshToken(w http.ResponseWriter, r *http.Request) {
	old := r.PostForm.Get("refresh_token")
	s.mu.Lock()
	prev, ok := s.refresh[old]
	delete(s.refresh, old) // single use, as strict servers rotate them
	s.mu.Unlock()
	if !ok || prev.clientID != requestClientID(r) {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
		return
	}
	prev.expiry = time.Now().Add(s.o.RefreshedLifetime)
	s.issue(w, prev)
}

// clientCredentials issues a token to the confidential pre-registered
// client itself (a machine client: no user, no code, no refresh token).
func (s *Server) clientCredentials(w http.ResponseWriter, r *http.Request) {
	if s.o.ClientSecret == "" || requestClientID(r) != PreregisteredClient {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "unauthorized_client"})
		return
	}
	s.issueToClient(w, r)
}

// issueToClient answers a machine grant (client credentials, JWT bearer)
// with an access token of the pre-registered client itself, for the scope
// asked for (the base scope when none): no user, no refresh token.
func (s *Server) issueToClient(w http.ResponseWriter, r *http.Request) {
	scope := r.PostForm.Get("scope")
	if scope == "" {
		scope = baseScope
	}
	access := PrefixAccess + rand.Text()
	tok := issued{clientID: PreregisteredClient, scope: scope, expiry: time.Now().Add(s.o.TokenLifetime)}
	s.mu.Lock()
	s.access[access] = tok
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"access_token": access, "token_type": "Bearer",
		"expires_in": int(time.Until(tok.expiry).Round(time.Second).Seconds()), "scope": scope})
}

func (s *Server) issue(w http.ResponseWriter, tok issued) {
	access := PrefixAccess + rand.Text()
	out := map[string]any{"access_token": access, "token_type": "Bearer", "expires_in": int(time.Until(tok.expiry).Round(time.Second).Seconds()), "scope": tok.scope}
	s.mu.Lock()
	s.access[access] = tok
	if !s.o.NoRefresh {
		refresh := PrefixRefresh + rand.Text()
		s.refresh[refresh] = tok
		out["refresh_token"] = refresh
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}

// clientAuthenticated checks the secret of a confidential client
// (PreregisteredClient with Options.ClientSecret); a public client needs
// none and must send none.
func (s *Server) clientAuthenticated(r *http.Request) bool {
	if requestClientID(r) != PreregisteredClient {
		// A public client has no secret; one that sends a secret is
		// not who it says it is.
		_, secret, _ := r.BasicAuth()
		return secret == "" && r.PostForm.Get("client_secret") == ""
	}
	if s.o.ClientSecret == "" {
		return true
	}
	if _, secret, ok := r.BasicAuth(); ok {
		// RFC 6749 form-encodes both parts before Basic encoding.
		decoded, err := url.QueryUnescape(secret)
		return err == nil && decoded == s.o.ClientSecret
	}
	return r.PostForm.Get("client_secret") == s.o.ClientSecret
}

// clientAuthNote says in the log how a client authenticated (never the
// secret).
func (s *Server) clientAuthNote(r *http.Request) string {
	if s.o.ClientSecret == "" {
		return ""
	}
	switch {
	case r.Header.Get("Authorization") != "":
		return " auth=client_secret_basic"
	case r.PostForm.Get("client_secret") != "":
		return " auth=client_secret_post"
	}
	return " auth=none"
}

// requestClientID is the client of a token request: in the form, or as
// the user of HTTP Basic authentication (client_secret_basic, which
// clients try first when the server does not say; RFC 6749 form-encodes
// it, which a URL client ID shows).
func requestClientID(r *http.Request) string {
	if id := r.PostForm.Get("client_id"); id != "" {
		return id
	}
	id, _, _ := r.BasicAuth()
	decoded, err := url.QueryUnescape(id)
	if err != nil {
		return id
	}
	return decoded
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
