package mcpclient

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

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
