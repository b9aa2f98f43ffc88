package mcpauth

import (
	"context"
	"fmt"
	"net/http"

	"github.com/gofrs/flock"
	"github.com/modelcontextprotocol/go-sdk/auth/extauth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/stratoscli/stratos/shared/mcpdecl"
)

// loginClientCredentials obtains a token with the client-credentials grant
// (a machine client registered beforehand, oauth.grant: client_credentials)
// and stores it like a login's: the server's metadata names the token
// endpoint, the declared client and secret are exchanged for a token, and
// nobody is sent to a browser. There is no refresh token; a new token is
// obtained the same way when this one runs out (clientCredentials).
func loginClientCredentials(ctx context.Context, store Store, server mcpdecl.Server, client *http.Client, id Identity) (Record, error) {
	h, err := extauth.NewClientCredentialsHandler(&extauth.ClientCredentialsHandlerConfig{
		Credentials: &oauthex.ClientCredentials{ClientID: server.OAuth.ClientID,
			ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: server.OAuth.ClientSecret}},
		HTTPClient: client,
	})
	if err != nil {
		return Record{}, fmt.Errorf("MCP server %q: %w", server.Name, err)
	}
	req, resp, err := challenge(ctx, client, server)
	if err != nil {
		return Record{}, err
	}
	if err := h.Authorize(ctx, req, resp); err != nil {
		if ctx.Err() != nil {
			return Record{}, ctx.Err()
		}
		return Record{}, fmt.Errorf("MCP server %q: client credentials: %w", server.Name, err)
	}
	src, err := h.TokenSource(ctx)
	if err != nil || src == nil {
		return Record{}, fmt.Errorf("MCP server %q: client credentials: the authorization server issued no token", server.Name)
	}
	tok, err := src.Token()
	if err != nil {
		return Record{}, fmt.Errorf("MCP server %q: client credentials: %w", server.Name, err)
	}
	r := Record{Identity: id, ClientID: server.OAuth.ClientID, Grant: mcpdecl.GrantClientCredentials,
		AccessToken: tok.AccessToken, TokenType: tok.TokenType, Expiry: tok.Expiry}
	if err := store.Save(r); err != nil {
		return Record{}, err
	}
	return r, nil
}

// clientCredentials returns the stored token of a client-credentials
// server while it has MinValidity left, else obtains a new one under the
// record's lock (parallel processes obtain one, not one each).
func (t Tokens) clientCredentials(ctx context.Context, server mcpdecl.Server, id Identity) (Record, error) {
	if r, err := t.Store.Load(id); err == nil && r.Remaining(t.now()) >= MinValidity {
		return r, nil
	}
	if err := t.Store.ensureDir(); err != nil {
		return Record{}, err
	}
	lock := flock.New(t.Store.path(id)+".lock", flock.SetPermissions(0o600))
	if _, err := lock.TryLockContext(ctx, lockRetry); err != nil {
		return Record{}, fmt.Errorf("lock the MCP credentials of %s: %w", id.Resource, err)
	}
	defer lock.Unlock()
	if r, err := t.Store.Load(id); err == nil && r.Remaining(t.now()) >= MinValidity {
		return r, nil // another process obtained one meanwhile
	}
	client := t.HTTPClient
	if client == nil {
		client = NewHTTPClient()
	}
	return loginClientCredentials(ctx, t.Store, server, client, id)
}
