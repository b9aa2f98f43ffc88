package mcpclient

import (
	"context"
	"errors"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/fakemcp"
	"github.com/stratoscli/stratos/shared/fakeoauth"
	"github.com/stratoscli/stratos/shared/mcpauth"
	"github.com/stratoscli/stratos/shared/mcpdecl"
)

type lockedLog struct {
	strings.Builder
	ch chan struct{}
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.ch <- struct{}{}
	defer func() { <-l.ch }()
	return l.Builder.Write(p)
}

func (l *lockedLog) String() string {
	l.ch <- struct{}{}
	defer func() { <-l.ch }()
	return l.Builder.String()
}

func oauthServer(t *testing.T, o fakeoauth.Options) (mcpdecl.Server, *lockedLog) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	log := &lockedLog{ch: make(chan struct{}, 1)}
	o.Log = log
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	url := fakemcp.Serve(ctx, ln, fakemcp.Options{OAuth: &o})
	return mcpdecl.Server{Name: "tracker", Transport: mcpdecl.TransportHTTP, URL: url, OAuth: &mcpdecl.OAuth{}}, log
}

func browse(authURL string) error {
	resp, err := http.Get(authURL)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func TestConnectWithoutLoginNamesTheLoginCommand(t *testing.T) {
	server, _ := oauthServer(t, fakeoauth.Options{})
	tokens := mcpauth.Tokens{Store: mcpauth.Open(t.TempDir())}
	_, err := Connect(context.Background(), server, Options{Tokens: &tokens, Workflow: "triage"})
	var se *mcpauth.ServerError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "stratos mcp login triage tracker") {
		t.Fatalf("err = %v, want a ServerError naming the login command", err)
	}
}

func TestConnectSendsTheStoredTokenAndRefreshesIt(t *testing.T) {
	server, log := oauthServer(t, fakeoauth.Options{TokenLifetime: 2 * time.Minute, RefreshedLifetime: time.Hour})
	store := mcpauth.Open(t.TempDir())
	first, err := mcpauth.Login(context.Background(), store, server, mcpauth.LoginOptions{Visit: browse})
	if err != nil {
		t.Fatal(err)
	}
	tokens := mcpauth.Tokens{Store: store}
	atLogin := len(log.String())
	c, err := Connect(context.Background(), server, Options{Tokens: &tokens, Workflow: "triage"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Tools(context.Background()); err != nil {
		t.Fatal(err)
	}
	if after := log.String()[atLogin:]; !strings.Contains(after, "grant=refresh_token") || strings.Contains(after, "401") {
		t.Errorf("the 2-minute token was not refreshed before use:\n%s", after)
	}
	now, _ := store.Load(first.Identity)
	if now.AccessToken == first.AccessToken {
		t.Error("the stored token is still the first one")
	}
}

func callEcho(c *Client) error {
	_, err := c.Session.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}})
	return err
}

// A server that wants a larger scope for a call (403 insufficient_scope,
// the step-up of the MCP authorization spec) gets it: a run, with nobody at
// a browser, fails naming the scopes and the login command, and the login
// it names asks for them; with Tokens.StepUp the client logs in again at
// once and the call is retried.
func TestStepUpAsksTheNextLoginForTheLargerScope(t *testing.T) {
	server, log := oauthServer(t, fakeoauth.Options{StepUpScope: "write"})
	store := mcpauth.Open(t.TempDir())
	if _, err := mcpauth.Login(context.Background(), store, server, mcpauth.LoginOptions{Visit: browse}); err != nil {
		t.Fatal(err)
	}
	tokens := mcpauth.Tokens{Store: store}
	c, err := Connect(context.Background(), server, Options{Tokens: &tokens, Workflow: "triage"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	err = callEcho(c)
	if err == nil || !strings.Contains(err.Error(), "needs scopes tools write") || !strings.Contains(err.Error(), "stratos mcp login triage tracker") {
		t.Fatalf("call with the small scope: err = %v, want the scopes and the login command", err)
	}
	if _, err := mcpauth.Login(context.Background(), store, server, mcpauth.LoginOptions{Visit: browse}); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`GET /authorize scope="[^"]*\bwrite\b`).MatchString(log.String()) {
		t.Errorf("the second login did not ask for the larger scope:\n%s", log)
	}
	c2, err := Connect(context.Background(), server, Options{Tokens: &tokens, Workflow: "triage"})
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if err := callEcho(c2); err != nil {
		t.Fatalf("call after the step-up login: %v", err)
	}
}

func TestStepUpLogsInAgainWhenItCan(t *testing.T) {
	server, _ := oauthServer(t, fakeoauth.Options{StepUpScope: "write"})
	store := mcpauth.Open(t.TempDir())
	if _, err := mcpauth.Login(context.Background(), store, server, mcpauth.LoginOptions{Visit: browse}); err != nil {
		t.Fatal(err)
	}
	logins := 0
	tokens := mcpauth.Tokens{Store: store, StepUp: func(ctx context.Context, s mcpdecl.Server) error {
		logins++
		_, err := mcpauth.Login(ctx, store, s, mcpauth.LoginOptions{Visit: browse})
		return err
	}}
	c, err := Connect(context.Background(), server, Options{Tokens: &tokens, Workflow: "triage"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := callEcho(c); err != nil || logins != 1 {
		t.Fatalf("err = %v after %d logins, want the call to succeed after one", err, logins)
	}
}
