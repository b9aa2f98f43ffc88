package mcprelay_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/fakemcp"
	"github.com/stratoscli/stratos/shared/fakeoauth"
	"github.com/stratoscli/stratos/shared/mcpauth"
	"github.com/stratoscli/stratos/shared/mcpclient"
	"github.com/stratoscli/stratos/shared/mcpdecl"
	"github.com/stratoscli/stratos/stratos-agent/mcprelay"
)

type requestLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *requestLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *requestLog) since(n int) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()[n:]
}

func (l *requestLog) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Len()
}

// loggedIn serves the fake MCP server behind the fake authorization server
// and logs in to it.
func loggedIn(t *testing.T, o fakeoauth.Options) (mcpdecl.Server, mcpauth.Store, *requestLog) {
	t.Helper()
	log := &requestLog{}
	o.Log = log
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	server := mcpdecl.Server{Name: "tracker", Transport: mcpdecl.TransportHTTP, URL: fakemcp.Serve(ctx, ln, fakemcp.Options{OAuth: &o}), OAuth: &mcpdecl.OAuth{}}
	store := mcpauth.Open(t.TempDir())
	_, err = mcpauth.Login(context.Background(), store, server, mcpauth.LoginOptions{Visit: func(u string) error {
		resp, err := http.Get(u)
		if err == nil {
			resp.Body.Close()
		}
		return err
	}})
	if err != nil {
		t.Fatal(err)
	}
	return server, store, log
}

// harness connects as a harness does: a plain HTTP server at the relay URL.
func harness(t *testing.T, url string) *mcpclient.Client {
	t.Helper()
	c, err := mcpclient.Connect(context.Background(), mcpdecl.Server{Name: "tracker", Transport: mcpdecl.TransportHTTP, URL: url}, mcpclient.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestTheTokenIsRenewedBetweenRequests(t *testing.T) {
	server, store, log := loggedIn(t, fakeoauth.Options{TokenLifetime: 10 * time.Minute, RefreshedLifetime: time.Hour})
	var skew atomic.Int64
	tokens := mcpauth.Tokens{Store: store, Now: func() time.Time { return time.Now().Add(time.Duration(skew.Load())) }}
	relay := mcprelay.New(tokens, nil)
	defer relay.Close()
	url, err := relay.Route(context.Background(), "triage", server)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") || strings.Contains(url, server.URL) {
		t.Fatalf("relay URL %q", url)
	}
	start := log.len()
	c := harness(t, url)
	if _, err := c.Tools(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := log.since(start); strings.Contains(got, "grant=refresh_token") || !strings.Contains(got, "bearer ok") {
		t.Fatalf("first requests:\n%s", got)
	}
	// Six minutes later the ten-minute token has four left: the next
	// request goes out with a renewed one.
	skew.Store(int64(6 * time.Minute))
	mark := log.len()
	if _, err := c.Tools(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := log.since(mark); !strings.Contains(got, "grant=refresh_token") || !strings.Contains(got, "bearer ok") || strings.Contains(got, "401") {
		t.Fatalf("after six minutes:\n%s", got)
	}
}

func TestRouteWithoutLoginNamesTheLoginCommand(t *testing.T) {
	server, _, _ := loggedIn(t, fakeoauth.Options{})
	relay := mcprelay.New(mcpauth.Tokens{Store: mcpauth.Open(t.TempDir())}, nil)
	defer relay.Close()
	_, err := relay.Route(context.Background(), "triage", server)
	var se *mcpauth.ServerError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "stratos mcp login triage tracker") {
		t.Fatalf("err = %v", err)
	}
}

func TestLoggedOutMidRunIsRefused(t *testing.T) {
	server, store, _ := loggedIn(t, fakeoauth.Options{})
	relay := mcprelay.New(mcpauth.Tokens{Store: store}, nil)
	defer relay.Close()
	url, err := relay.Route(context.Background(), "triage", server)
	if err != nil {
		t.Fatal(err)
	}
	c := harness(t, url)
	id, _ := mcpauth.IdentityOf(server.URL, "")
	if _, err := store.Delete(id); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Tools(context.Background()); err == nil {
		t.Fatal("a request without a login went through")
	}
	resp, err := http.Post(url, "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("status %d, want 401", resp.StatusCode)
	}
	if resp, err := http.Get(strings.TrimSuffix(url, url[strings.LastIndex(url, "/"):]) + "/guess"); err == nil {
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("an unknown route answered %d", resp.StatusCode)
		}
	}
}

// Another local user or a web page in the user's browser reaches the
// relay's port too: a foreign Host (DNS rebinding), another origin or
// site, or a guessed path is refused, and nothing reaches the server.
func TestOnlyTheHarnessReachesTheRelay(t *testing.T) {
	server, store, log := loggedIn(t, fakeoauth.Options{})
	relay := mcprelay.New(mcpauth.Tokens{Store: store}, nil)
	defer relay.Close()
	route, err := relay.Route(context.Background(), "triage", server)
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(route)
	if err != nil {
		t.Fatal(err)
	}
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	mark := log.len()
	for _, tt := range []struct {
		name   string
		path   string
		host   string
		header map[string]string
		want   int
	}{
		{name: "foreign Host", host: "evil.example:" + u.Port(), want: http.StatusForbidden},
		{name: "foreign Origin", header: map[string]string{"Origin": "https://evil.example"}, want: http.StatusForbidden},
		{name: "cross-site fetch", header: map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "cors", "Sec-Fetch-Dest": "empty"}, want: http.StatusForbidden},
		{name: "guessed path", path: "/" + strings.Repeat("a", len(u.Path)-1), want: http.StatusNotFound},
		{name: "no path", path: "/", want: http.StatusNotFound},
	} {
		target := *u
		if tt.path != "" {
			target.Path = tt.path
		}
		req, err := http.NewRequest(http.MethodPost, target.String(), strings.NewReader(initialize))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tt.host != "" {
			req.Host = tt.host
		}
		for k, v := range tt.header {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("%s: HTTP %d, want %d", tt.name, resp.StatusCode, tt.want)
		}
	}
	if got := log.since(mark); got != "" {
		t.Errorf("refused requests reached the server:\n%s", got)
	}
	if _, err := harness(t, route).Tools(context.Background()); err != nil {
		t.Fatalf("the harness's own requests: %v", err)
	}
}

// A server that wants a larger scope for a call answers the harness 403
// insufficient_scope through the relay, which cannot log in again (nobody
// is at a browser) but notes the scopes with the login, so that the next
// `stratos mcp login` asks for them.
func TestAStepUpIsNotedForTheNextLogin(t *testing.T) {
	server, store, log := loggedIn(t, fakeoauth.Options{StepUpScope: "write"})
	relay := mcprelay.New(mcpauth.Tokens{Store: store}, nil)
	defer relay.Close()
	url, err := relay.Route(context.Background(), "triage", server)
	if err != nil {
		t.Fatal(err)
	}
	c := harness(t, url)
	if _, err := c.Session.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}}); err == nil {
		t.Fatalf("the call with the small scope succeeded:\n%s", log.since(0))
	}
	id, _ := mcpauth.IdentityOf(server.URL, "")
	rec, err := store.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rec.StepUpScopes, " "); got != "tools write" {
		t.Errorf("step-up scopes noted: %q, want \"tools write\"", got)
	}
}
