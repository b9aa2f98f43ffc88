package mcpauth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/stratoscli/stratos/shared/loopbackguard"
	"github.com/stratoscli/stratos/shared/mcpdecl"
)

// callbackPath is where the loopback listener receives the redirect.
const callbackPath = "/callback"

// LoginOptions configure a login.
type LoginOptions struct {
	// HTTPClient carries the discovery, registration and token requests
	// (nil: NewHTTPClient()).
	HTTPClient *http.Client
	// Visit is given the authorization URL: it prints it, and may open a
	// browser. The login then waits for the redirect.
	Visit func(authURL string) error
}

// NewHTTPClient is the client logins and refreshes use. The SDK's default
// refuses loopback and private addresses (a server-side defence against
// request forgery); here the addresses come from the user's own
// workflow.yaml, and a local MCP server is a normal case, so a plain
// transport is used.
func NewHTTPClient() *http.Client {
	return &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone(), Timeout: time.Minute}
}

// Login runs the authorization code flow with PKCE for server (resolved:
// no ${NAME} left), or for a client-credentials server obtains a token
// without anyone (loginClientCredentials). For the authorization code flow
// it stores the tokens: it asks the server for the
// challenge its endpoint answers without a token, discovers the
// authorization server from the protected-resource metadata, registers a
// client dynamically unless workflow.yaml names one, sends the user to the
// authorization URL and receives the code on a one-time listener on
// 127.0.0.1 (see callback). Nothing is stored unless every step succeeds.
func Login(ctx context.Context, store Store, server mcpdecl.Server, o LoginOptions) (Record, error) {
	if server.OAuth == nil || server.Transport != mcpdecl.TransportHTTP {
		return Record{}, fmt.Errorf("MCP server %q is not an HTTP server with oauth in workflow.yaml", server.Name)
	}
	id, err := IdentityOf(server.URL, server.OAuth.ClientID)
	if err != nil {
		return Record{}, err
	}
	client := o.HTTPClient
	if client == nil {
		client = NewHTTPClient()
	}
	client, legacy := withLegacyIssuer(client, server.URL)
	if server.OAuth.Unattended() {
		return loginClientCredentials(ctx, store, server, client, id)
	}
	if doc := server.OAuth.ClientMetadataURL; doc != "" {
		if problem := mcpdecl.CheckClientMetadataURL(doc); problem != "" {
			return Record{}, fmt.Errorf("MCP server %q: mcp.servers.%s.oauth.clientMetadataUrl %q %s", server.Name, server.Name, doc, problem)
		}
	}
	stepUp := previousStepUp(store, id)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return Record{}, fmt.Errorf("listen for the authorization redirect: %w", err)
	}
	cb := newCallback(ln)
	defer cb.close()
	var got struct {
		cfg   *oauth2.Config
		token *oauth2.Token
	}
	handler, err := auth.NewAuthorizationCodeHandler(handlerConfig(server, client, cb.url, func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		if err := cb.expect(args.URL); err != nil {
			return nil, err
		}
		if err := o.Visit(args.URL); err != nil {
			return nil, err
		}
		res, err := cb.wait(ctx)
		if res != nil {
			res.Iss = legacy.issuerSeen(res.Iss)
		}
		return res, err
	}, stepUp, func(cfg *oauth2.Config, tok *oauth2.Token) {
		got.cfg, got.token = cfg, tok
	}))
	if err != nil {
		return Record{}, fmt.Errorf("MCP server %q: %w", server.Name, err)
	}
	req, resp, err := challenge(ctx, client, server)
	if err != nil {
		return Record{}, err
	}
	if err := handler.Authorize(ctx, req, resp); err != nil {
		if ctx.Err() != nil {
			return Record{}, ctx.Err()
		}
		return Record{}, fmt.Errorf("MCP server %q: authorization failed: %w%s", server.Name, err, registrationHint(server))
	}
	if got.token == nil {
		return Record{}, fmt.Errorf("MCP server %q: the authorization server issued no token", server.Name)
	}
	r := Record{Identity: id, ClientID: got.cfg.ClientID, TokenURL: got.cfg.Endpoint.TokenURL,
		AuthStyle: int(got.cfg.Endpoint.AuthStyle), Scopes: got.cfg.Scopes, AccessToken: got.token.AccessToken,
		TokenType: got.token.TokenType, RefreshToken: got.token.RefreshToken, Expiry: got.token.Expiry, StepUpScopes: stepUp}
	if server.OAuth.ClientSecret == "" {
		r.ClientSecret = got.cfg.ClientSecret // issued by the registration: nowhere else to keep it
	}
	if err := store.Save(r); err != nil {
		return Record{}, err
	}
	return r, nil
}

// registrationHint says, after a failed authorization of a server declared
// with a client ID metadata document, which of the client's ways the
// authorization server may have refused: the document's URL is used only
// where it advertises support, the fallback is the declared clientId or
// dynamic registration.
func registrationHint(server mcpdecl.Server) string {
	if server.OAuth.ClientMetadataURL == "" {
		return ""
	}
	fallback := "dynamic registration (if it offers a registration_endpoint)"
	if server.OAuth.ClientID != "" {
		fallback = "mcp.servers." + server.Name + ".oauth.clientId"
	}
	return fmt.Sprintf(" (mcp.servers.%s.oauth.clientMetadataUrl is the client_id only where the authorization server's metadata advertises client_id_metadata_document_supported; elsewhere the login uses %s)", server.Name, fallback)
}

// handlerConfig configures the SDK's flow: the declared client ID metadata
// document's URL where the authorization server advertises support, else
// the declared client (with its secret, for a confidential client) or
// dynamic registration, and the scopes: the declared ones, else those the
// server names, plus those it asked for in a step-up since the last login.
// The SDK tries them in that order.
func handlerConfig(server mcpdecl.Server, client *http.Client, redirect string, fetch auth.AuthorizationCodeFetcher, stepUp []string, keep func(*oauth2.Config, *oauth2.Token)) *auth.AuthorizationCodeHandlerConfig {
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:              redirect,
		AuthorizationCodeFetcher: fetch,
		RequestRefreshToken:      true,
		Client:                   client,
		NewTokenSource: func(ctx context.Context, c *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
			keep(c, tok)
			return oauth2.StaticTokenSource(tok), nil
		},
	}
	if doc := server.OAuth.ClientMetadataURL; doc != "" {
		cfg.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: doc}
	}
	if id := server.OAuth.ClientID; id != "" {
		cfg.PreregisteredClient = &oauthex.ClientCredentials{ClientID: id}
		if secret := server.OAuth.ClientSecret; secret != "" {
			cfg.PreregisteredClient.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: secret}
		}
	} else {
		cfg.DynamicClientRegistrationConfig = &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			RedirectURIs:            []string{redirect},
			TokenEndpointAuthMethod: "none",
			GrantTypes:              []string{"authorization_code", "refresh_token"},
			ResponseTypes:           []string{"code"},
			ClientName:              "Stratos",
		}}
	}
	declared := server.OAuth.Scopes
	cfg.ScopeFilter = func(discovered []string) []string {
		if len(declared) > 0 {
			discovered = declared
		}
		return unionScopes(discovered, stepUp)
	}
	return cfg
}

// previousStepUp returns the scopes the server asked for beyond the stored
// login, if there is one.
func previousStepUp(store Store, id Identity) []string {
	r, err := store.Load(id)
	if err != nil {
		return nil
	}
	return r.StepUpScopes
}

// challenge sends the server an unauthenticated request: its 401 names the
// protected-resource metadata the SDK's flow starts from.
func challenge(ctx context.Context, client *http.Client, server mcpdecl.Server) (*http.Request, *http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, server.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		return nil, nil, fmt.Errorf("MCP server %q: %w", server.Name, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range server.Headers {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, nil, fmt.Errorf("MCP server %q: %w", server.Name, err)
	}
	if resp.StatusCode != http.StatusUnauthorized {
		resp.Body.Close()
		return nil, nil, fmt.Errorf("MCP server %q answered HTTP %d without a token, not 401: it does not ask for OAuth", server.Name, resp.StatusCode)
	}
	return req, resp, nil
}

// callback is the one-time loopback listener the authorization server
// redirects the browser to. Any local user, and any web page in the
// user's browser, can send it a request too; the first one to arrive must
// not decide the login. So only a GET under this listener's own Host from
// no other origin (loopbackguard: the redirect is a top-level navigation,
// which sends no Origin) that carries the state of the authorization URL
// the user was sent to is taken; anything else is refused and the wait
// goes on. The state is the login's secret here: the browser cannot be
// made to send a header, and the state is in no other hands.
type callback struct {
	url    string
	srv    *http.Server
	result chan callbackResult

	mu    sync.Mutex
	state string // of the authorization URL; "" until known
}

type callbackResult struct {
	res *auth.AuthorizationResult
	err error
}

func newCallback(ln net.Listener) *callback {
	cb := &callback{url: "http://" + ln.Addr().String() + callbackPath, result: make(chan callbackResult, 1)}
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+callbackPath, cb.receive)
	cb.srv = &http.Server{Handler: loopbackguard.Guard{}.Wrap(mux), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = cb.srv.Serve(ln) }()
	return cb
}

// expect notes the state of authURL, the one redirect to take.
func (cb *callback) expect(authURL string) error {
	u, err := url.Parse(authURL)
	if err != nil {
		return fmt.Errorf("the authorization URL: %w", err)
	}
	state := u.Query().Get("state")
	if state == "" {
		return errors.New("the authorization URL carries no state")
	}
	cb.mu.Lock()
	defer cb.mu.Unlock()
	cb.state = state
	return nil
}

func (cb *callback) ownState(state string) bool {
	cb.mu.Lock()
	defer cb.mu.Unlock()
	return loopbackguard.EqualSecret(state, cb.state)
}

func (cb *callback) receive(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if !cb.ownState(q.Get("state")) {
		http.Error(w, "Stratos: this is not the redirect of the login under way; it was ignored.", http.StatusBadRequest)
		return
	}
	var out callbackResult
	if e := q.Get("error"); e != "" {
		out.err = fmt.Errorf("the authorization server refused: %s %s", e, q.Get("error_description"))
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, "Stratos: authorization refused. You can close this page.\n")
	} else {
		out.res = &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}
		_, _ = io.WriteString(w, "Stratos: logged in. You can close this page.\n")
	}
	select {
	case cb.result <- out:
	default: // a second redirect is ignored
	}
}

func (cb *callback) wait(ctx context.Context) (*auth.AuthorizationResult, error) {
	select {
	case r := <-cb.result:
		if r.err == nil && r.res.Code == "" {
			return nil, errors.New("the redirect carried no authorization code")
		}
		return r.res, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (cb *callback) close() { _ = cb.srv.Close() }
