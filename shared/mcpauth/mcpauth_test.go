package mcpauth_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/fakemcp"
	"github.com/stratoscli/stratos/shared/fakeoauth"
	"github.com/stratoscli/stratos/shared/mcpauth"
	"github.com/stratoscli/stratos/shared/mcpdecl"
)

// serve starts the fake MCP server guarded by the fake authorization
// server and returns its URL and the request log.
func serve(t *testing.T, o fakeoauth.Options) (string, *syncBuffer) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	log := &syncBuffer{}
	o.Log = log
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return fakemcp.Serve(ctx, ln, fakemcp.Options{OAuth: &o}), log
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// follow plays the browser: it fetches the authorization URL and follows
// the redirect to the loopback listener.
func follow(authURL string) error {
	resp, err := http.Get(authURL)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return errors.New("redirect answered " + resp.Status)
	}
	return nil
}

func login(t *testing.T, store mcpauth.Store, url string, oauth *mcpdecl.OAuth) mcpauth.Record {
	t.Helper()
	server := mcpdecl.Server{Name: "tracker", Transport: mcpdecl.TransportHTTP, URL: url, OAuth: oauth}
	r, err := mcpauth.Login(context.Background(), store, server, mcpauth.LoginOptions{Visit: follow})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestLoginRegistersAndStoresPrivately(t *testing.T) {
	url, log := serve(t, fakeoauth.Options{})
	home := t.TempDir()
	store := mcpauth.Open(home)
	r := login(t, store, url, &mcpdecl.OAuth{})
	if !strings.HasPrefix(r.AccessToken, fakeoauth.PrefixAccess) || !strings.HasPrefix(r.RefreshToken, fakeoauth.PrefixRefresh) {
		t.Fatalf("tokens not from the fake: %v", r)
	}
	if !strings.HasPrefix(r.ClientID, "client-") {
		t.Errorf("client %q: want a dynamically registered one", r.ClientID)
	}
	for _, want := range []string{"POST /register", "GET /authorize", "POST /token grant=authorization_code"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("request log lacks %q:\n%s", want, log)
		}
	}
	dir, err := os.Stat(store.Dir())
	if err != nil || dir.Mode().Perm() != 0o700 {
		t.Fatalf("store directory: %v %v, want mode 0700", dir.Mode(), err)
	}
	files, _ := filepath.Glob(filepath.Join(store.Dir(), "*.json"))
	if len(files) != 1 {
		t.Fatalf("store files: %v", files)
	}
	if fi, _ := os.Stat(files[0]); fi.Mode().Perm() != 0o600 {
		t.Errorf("record mode %v, want 0600", fi.Mode().Perm())
	}
	if s := r.String() + r.GoString(); strings.Contains(s, r.AccessToken) || strings.Contains(s, r.RefreshToken) {
		t.Errorf("String shows a token: %s", s)
	}
}

func TestLoginWithDeclaredClientID(t *testing.T) {
	url, log := serve(t, fakeoauth.Options{NoRegistration: true})
	store := mcpauth.Open(t.TempDir())
	r := login(t, store, url, &mcpdecl.OAuth{ClientID: fakeoauth.PreregisteredClient, Scopes: []string{"tools"}})
	if r.ClientID != fakeoauth.PreregisteredClient {
		t.Errorf("client %q", r.ClientID)
	}
	if strings.Contains(log.String(), "/register") {
		t.Errorf("registered although a client was declared:\n%s", log)
	}
	id, _ := mcpauth.IdentityOf(url, fakeoauth.PreregisteredClient)
	if _, err := store.Load(id); err != nil {
		t.Fatal(err)
	}
	other, _ := mcpauth.IdentityOf(url, "")
	if _, err := store.Load(other); !errors.Is(err, mcpauth.ErrNotFound) {
		t.Errorf("another client ID found the login: %v", err)
	}
}

func TestLoginFailsForAServerWithoutOAuth(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	url := fakemcp.Serve(ctx, ln, fakemcp.Options{})
	store := mcpauth.Open(t.TempDir())
	server := mcpdecl.Server{Name: "plain", Transport: mcpdecl.TransportHTTP, URL: url, OAuth: &mcpdecl.OAuth{}}
	_, err := mcpauth.Login(context.Background(), store, server, mcpauth.LoginOptions{Visit: follow})
	if err == nil || !strings.Contains(err.Error(), "does not ask for OAuth") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(store.Dir()); !os.IsNotExist(err) {
		t.Errorf("a failed login wrote the store: %v", err)
	}
}

func TestLoginCancelledWritesNothing(t *testing.T) {
	url, _ := serve(t, fakeoauth.Options{})
	store := mcpauth.Open(t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	server := mcpdecl.Server{Name: "tracker", Transport: mcpdecl.TransportHTTP, URL: url, OAuth: &mcpdecl.OAuth{}}
	_, err := mcpauth.Login(ctx, store, server, mcpauth.LoginOptions{Visit: func(string) error { cancel(); return nil }})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if files, _ := filepath.Glob(filepath.Join(store.Dir(), "*")); len(files) != 0 {
		t.Errorf("files after a cancelled login: %v", files)
	}
}

func TestTokenRefreshesWhenLessThanMinValidityLeft(t *testing.T) {
	url, log := serve(t, fakeoauth.Options{TokenLifetime: 2 * time.Minute, RefreshedLifetime: time.Hour})
	store := mcpauth.Open(t.TempDir())
	first := login(t, store, url, &mcpdecl.OAuth{})
	tokens := mcpauth.Tokens{Store: store}
	got, err := tokens.Check(context.Background(), first.Identity)
	if err != nil {
		t.Fatal(err)
	}
	if got.AccessToken == first.AccessToken || got.RefreshToken == first.RefreshToken {
		t.Fatal("the token was not refreshed")
	}
	if left := got.Remaining(time.Now()); left < 50*time.Minute {
		t.Errorf("refreshed token has %s left", left)
	}
	stored, _ := store.Load(first.Identity)
	if stored.AccessToken != got.AccessToken {
		t.Error("the refreshed token was not written back")
	}
	again, _ := tokens.Token(context.Background(), first.Identity)
	if again.AccessToken != got.AccessToken || strings.Count(log.String(), "grant=refresh_token") != 1 {
		t.Errorf("a fresh token was refreshed again:\n%s", log)
	}
}

func TestConcurrentRefreshesRefreshOnce(t *testing.T) {
	url, log := serve(t, fakeoauth.Options{TokenLifetime: time.Minute, RefreshedLifetime: time.Hour})
	store := mcpauth.Open(t.TempDir())
	first := login(t, store, url, &mcpdecl.OAuth{})
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			// Each goroutine stands for a process: its own Tokens.
			if _, err := (mcpauth.Tokens{Store: store}).Check(context.Background(), first.Identity); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := strings.Count(log.String(), "grant=refresh_token"); n != 1 {
		t.Errorf("%d refreshes, want 1 (the fake's refresh tokens are single-use)", n)
	}
}

func TestCheckWithoutRefreshToken(t *testing.T) {
	url, _ := serve(t, fakeoauth.Options{TokenLifetime: 2 * time.Minute, NoRefresh: true})
	store := mcpauth.Open(t.TempDir())
	first := login(t, store, url, &mcpdecl.OAuth{})
	tokens := mcpauth.Tokens{Store: store}
	if r, err := tokens.Token(context.Background(), first.Identity); err != nil || r.AccessToken != first.AccessToken {
		t.Errorf("a still valid token is not usable for a request: %v", err)
	}
	_, err := tokens.Check(context.Background(), first.Identity)
	var ce *mcpauth.CredentialError
	if !errors.As(err, &ce) || ce.Reason != mcpauth.ReasonExpiring {
		t.Fatalf("err = %v, want an expiring CredentialError", err)
	}
	tokens.Now = func() time.Time { return time.Now().Add(3 * time.Minute) }
	if _, err := tokens.Token(context.Background(), first.Identity); !errors.As(err, &ce) || ce.Reason != mcpauth.ReasonExpiring {
		t.Fatalf("expired token: err = %v", err)
	}
	if strings.Contains(err.Error(), first.AccessToken) {
		t.Error("the error shows the token")
	}
}

func TestTokenNotLoggedIn(t *testing.T) {
	id, _ := mcpauth.IdentityOf("http://127.0.0.1:9/mcp", "")
	_, err := (mcpauth.Tokens{Store: mcpauth.Open(t.TempDir())}).Token(context.Background(), id)
	var ce *mcpauth.CredentialError
	if !errors.As(err, &ce) || ce.Reason != mcpauth.ReasonNotLoggedIn {
		t.Fatalf("err = %v", err)
	}
}

func TestCanonicalResource(t *testing.T) {
	for in, want := range map[string]string{
		"HTTPS://Example.COM:443/mcp/": "https://example.com/mcp",
		"http://127.0.0.1:8080/mcp#x":  "http://127.0.0.1:8080/mcp",
		"http://example.com:80":        "http://example.com",
	} {
		if got, err := mcpauth.CanonicalResource(in); err != nil || got != want {
			t.Errorf("CanonicalResource(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := mcpauth.CanonicalResource("ftp://x"); err == nil {
		t.Error("ftp accepted")
	}
}

func TestRefusedRefresh(t *testing.T) {
	url, _ := serve(t, fakeoauth.Options{TokenLifetime: 2 * time.Minute})
	store := mcpauth.Open(t.TempDir())
	first := login(t, store, url, &mcpdecl.OAuth{})
	revoked := first
	revoked.RefreshToken = fakeoauth.PrefixRefresh + "revoked"
	if err := store.Save(revoked); err != nil {
		t.Fatal(err)
	}
	tokens := mcpauth.Tokens{Store: store}
	if r, err := tokens.Token(context.Background(), first.Identity); err != nil || r.AccessToken != first.AccessToken {
		t.Errorf("a request cannot use the still valid token: %v", err)
	}
	_, err := tokens.Check(context.Background(), first.Identity)
	var ce *mcpauth.CredentialError
	if !errors.As(err, &ce) || ce.Reason != mcpauth.ReasonRefreshFailed || !strings.Contains(err.Error(), "invalid_grant") {
		t.Fatalf("err = %v, want a refused refresh", err)
	}
	if strings.Contains(err.Error(), revoked.RefreshToken) {
		t.Error("the error shows the refresh token")
	}
}

// A client registered beforehand as a confidential client logs in with
// the secret its declaration references (client_secret_basic or _post, as
// the metadata offers) and refreshes with it; the secret is kept nowhere
// on disk, so it must come from the declaration again.
func TestLoginWithClientSecret(t *testing.T) {
	const secret = "conf-secret-Xq81"
	url, log := serve(t, fakeoauth.Options{NoRegistration: true, ClientSecret: secret, TokenLifetime: 2 * time.Minute, RefreshedLifetime: time.Hour})
	store := mcpauth.Open(t.TempDir())
	oauth := &mcpdecl.OAuth{ClientID: fakeoauth.PreregisteredClient, ClientSecret: secret}
	r := login(t, store, url, oauth)
	if !strings.Contains(log.String(), "grant=authorization_code auth=client_secret_") {
		t.Errorf("the code exchange did not authenticate the client:\n%s", log)
	}
	files, _ := filepath.Glob(filepath.Join(store.Dir(), "*.json"))
	for _, f := range files {
		if data, _ := os.ReadFile(f); strings.Contains(string(data), secret) {
			t.Errorf("%s holds the declared client secret", f)
		}
	}
	server := mcpdecl.Server{Name: "tracker", Transport: mcpdecl.TransportHTTP, URL: url, OAuth: oauth}
	fresh, err := mcpauth.Tokens{Store: store}.ForServer(context.Background(), "triage", server, true)
	if err != nil {
		t.Fatalf("refresh with the declared secret: %v", err)
	}
	if fresh.AccessToken == r.AccessToken || !strings.Contains(log.String(), "grant=refresh_token auth=client_secret_") {
		t.Errorf("the 2-minute token was not refreshed with the secret:\n%s", log)
	}
}

// Without its secret, a confidential client is refused (invalid_client)
// and nothing is stored: the test above fails for the right reason.
func TestLoginWithoutTheClientSecretIsRefused(t *testing.T) {
	url, _ := serve(t, fakeoauth.Options{NoRegistration: true, ClientSecret: "conf-secret-Xq81"})
	store := mcpauth.Open(t.TempDir())
	server := mcpdecl.Server{Name: "tracker", Transport: mcpdecl.TransportHTTP, URL: url, OAuth: &mcpdecl.OAuth{ClientID: fakeoauth.PreregisteredClient}}
	_, err := mcpauth.Login(context.Background(), store, server, mcpauth.LoginOptions{Visit: follow})
	if err == nil || !strings.Contains(err.Error(), "invalid_client") {
		t.Fatalf("err = %v, want invalid_client", err)
	}
}

// A 2025-03-26 server has no protected-resource metadata; its
// authorization server's metadata is at its origin and may name another
// issuer, which that version allows.
func TestLoginToA20250326Server(t *testing.T) {
	url, log := serve(t, fakeoauth.Options{Legacy: true})
	store := mcpauth.Open(t.TempDir())
	r := login(t, store, url, &mcpdecl.OAuth{})
	if r.AccessToken == "" || !strings.Contains(log.String(), "GET /.well-known/oauth-authorization-server") {
		t.Errorf("record %v, log:\n%s", r, log)
	}
}

// Step-ups noted at once (parallel calls each told to ask for another
// scope) all reach the stored login: none saves over another's scopes.
func TestConcurrentStepUpsKeepEveryScope(t *testing.T) {
	url, _ := serve(t, fakeoauth.Options{})
	store := mcpauth.Open(t.TempDir())
	first := login(t, store, url, &mcpdecl.OAuth{})
	tokens := mcpauth.Tokens{Store: store}
	server := mcpdecl.Server{Name: "s", Transport: mcpdecl.TransportHTTP, URL: url, OAuth: &mcpdecl.OAuth{}}
	const n = 16
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp := &http.Response{StatusCode: http.StatusForbidden, Header: http.Header{}}
			resp.Header.Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope="extra:%d"`, i))
			if _, err := tokens.NoteStepUp(server, resp); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	r, err := store.Load(first.Identity)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.StepUpScopes) != n {
		t.Fatalf("stored step-up scopes = %q, want all %d", r.StepUpScopes, n)
	}
}

// A machine client (oauth.grant: client_credentials) gets its token
// itself the first time a run needs one: no login, no browser, no
// authorization code; the token is reused while it lasts and a new one is
// obtained the same way when it runs out. The secret is stored nowhere.
func TestClientCredentialsNeedNoLogin(t *testing.T) {
	const secret = "machine-secret-Zt42"
	url, log := serve(t, fakeoauth.Options{NoRegistration: true, ClientSecret: secret, TokenLifetime: time.Hour})
	store := mcpauth.Open(t.TempDir())
	now := time.Now()
	tokens := mcpauth.Tokens{Store: store, Now: func() time.Time { return now }}
	server := mcpdecl.Server{Name: "tracker", Transport: mcpdecl.TransportHTTP, URL: url,
		OAuth: &mcpdecl.OAuth{ClientID: fakeoauth.PreregisteredClient, ClientSecret: secret, Grant: mcpdecl.GrantClientCredentials}}
	first, err := tokens.ForServer(context.Background(), "triage", server, true)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(first.AccessToken, fakeoauth.PrefixAccess) || first.Grant != mcpdecl.GrantClientCredentials {
		t.Fatalf("record = %+v, want a client-credentials token from the fake", first)
	}
	again, err := tokens.ForServer(context.Background(), "triage", server, false)
	if err != nil || again.AccessToken != first.AccessToken {
		t.Fatalf("a second use obtained another token (%v): the first one lasts an hour", err)
	}
	now = now.Add(58 * time.Minute) // less than MinValidity left
	renewed, err := tokens.ForServer(context.Background(), "triage", server, true)
	if err != nil || renewed.AccessToken == first.AccessToken {
		t.Fatalf("an expiring token was not replaced (%v)", err)
	}
	if got := strings.Count(log.String(), "grant=client_credentials auth=client_secret_"); got != 2 {
		t.Errorf("client-credentials exchanges = %d, want 2:\n%s", got, log)
	}
	if strings.Contains(log.String(), "/authorize") || strings.Contains(log.String(), "/register") {
		t.Errorf("a machine client was sent through a login:\n%s", log)
	}
	files, _ := filepath.Glob(filepath.Join(store.Dir(), "*.json"))
	for _, f := range files {
		if data, _ := os.ReadFile(f); strings.Contains(string(data), secret) {
			t.Errorf("%s holds the client secret", f)
		}
	}
}
