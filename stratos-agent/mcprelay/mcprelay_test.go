package mcprelay_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

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
