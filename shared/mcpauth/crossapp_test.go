package mcpauth_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/fakeoauth"
	"github.com/stratoscli/stratos/shared/mcpauth"
	"github.com/stratoscli/stratos/shared/mcpdecl"
)

// crossAppServer declares the fake server for cross-app access: the
// fake's identity provider, the user's ID token, and the pre-registered
// client, confidential with secret.
func crossAppServer(url, idToken, secret string) mcpdecl.Server {
	origin := strings.TrimSuffix(url, "/mcp")
	return mcpdecl.Server{Name: "tracker", Transport: mcpdecl.TransportHTTP, URL: url,
		OAuth: &mcpdecl.OAuth{Grant: mcpdecl.GrantCrossAppAccess, ClientID: fakeoauth.PreregisteredClient, ClientSecret: secret,
			IdP: &mcpdecl.IdP{TokenURL: origin + fakeoauth.IdPTokenPath, ClientID: fakeoauth.IdPClient, IDToken: idToken}}}
}

// Cross-app access needs no login: the identity provider exchanges the
// user's ID token for a grant addressed to the server's authorization
// server and resource, which takes it from the declared client for a
// token; a token about to expire is replaced the same way. Neither the ID
// token nor the secret is written anywhere.
func TestCrossAppAccessNeedsNoLogin(t *testing.T) {
	const idToken, secret = "id-token-Qw93", "xaa-secret-Lp07"
	url, log := serve(t, fakeoauth.Options{NoRegistration: true, ClientSecret: secret, IDToken: idToken, TokenLifetime: time.Hour})
	store := mcpauth.Open(t.TempDir())
	now := time.Now()
	tokens := mcpauth.Tokens{Store: store, Now: func() time.Time { return now }}
	server := crossAppServer(url, idToken, secret)
	first, err := tokens.ForServer(context.Background(), "triage", server, true)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(first.AccessToken, fakeoauth.PrefixAccess) || first.Grant != mcpdecl.GrantCrossAppAccess {
		t.Fatalf("record = %+v, want a cross-app access token from the fake", first)
	}
	if want := "audience=" + strings.TrimSuffix(url, "/mcp") + " resource=" + url; !strings.Contains(log.String(), want) {
		t.Errorf("the token exchange was not addressed to the authorization server and resource (%s):\n%s", want, log)
	}
	now = now.Add(58 * time.Minute) // less than MinValidity left
	renewed, err := tokens.ForServer(context.Background(), "triage", server, true)
	if err != nil || renewed.AccessToken == first.AccessToken {
		t.Fatalf("an expiring token was not replaced (%v)", err)
	}
	if got := strings.Count(log.String(), "grant=urn:ietf:params:oauth:grant-type:jwt-bearer auth=client_secret_"); got != 2 {
		t.Errorf("jwt-bearer grants with the client's secret = %d, want 2:\n%s", got, log)
	}
	if strings.Contains(log.String(), "/authorize") {
		t.Errorf("cross-app access was sent through a login:\n%s", log)
	}
	files, _ := filepath.Glob(filepath.Join(store.Dir(), "*"))
	for _, f := range files {
		if data, _ := os.ReadFile(f); strings.Contains(string(data), secret) || strings.Contains(string(data), idToken) || strings.Contains(string(data), fakeoauth.PrefixGrant) {
			t.Errorf("%s holds the secret, the ID token or the grant", f)
		}
	}
}

// An ID token the identity provider refuses fails naming the server and
// the field of the identity provider, without the token.
func TestCrossAppAccessRefusedIDTokenNamesTheIdP(t *testing.T) {
	url, _ := serve(t, fakeoauth.Options{NoRegistration: true, IDToken: "id-token-good"})
	tokens := mcpauth.Tokens{Store: mcpauth.Open(t.TempDir())}
	_, err := tokens.ForServer(context.Background(), "triage", crossAppServer(url, "id-token-St4le", ""), true)
	if err == nil || !strings.Contains(err.Error(), `MCP server "tracker": cross-app access: the identity provider (mcp.servers.tracker.oauth.idp.tokenUrl) did not exchange the ID token`) ||
		!strings.Contains(err.Error(), "invalid_grant") || strings.Contains(err.Error(), "St4le") {
		t.Fatalf("err = %v", err)
	}
}
