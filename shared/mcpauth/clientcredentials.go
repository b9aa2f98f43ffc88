package mcpauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gofrs/flock"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/auth/extauth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/stratoscli/stratos/shared/mcpdecl"
)

// loginClientCredentials obtains a token with the client-credentials grant
// (a machine client registered beforehand, oauth.grant: client_credentials)
// and stores it like a login's: the server's metadata names the token
// endpoint, the declared client authenticates with its secret or a JWT
// signed with its private key, and nobody is sent to a browser. There is no refresh token; a new token is
// obtained the same way when this one runs out (clientCredentials).
func loginClientCredentials(ctx context.Context, store Store, server mcpdecl.Server, client *http.Client, id Identity) (Record, error) {
	var tok *oauth2.Token
	var err error
	what := "client credentials"
	switch {
	case server.OAuth.Grant == mcpdecl.GrantCrossAppAccess:
		what = "cross-app access"
		tok, err = crossAppGrant(ctx, client, server)
	case server.OAuth.PrivateKey != "":
		tok, err = assertionGrant(ctx, client, server)
	default:
		tok, err = secretGrant(ctx, client, server)
	}
	if err != nil {
		if ctx.Err() != nil {
			return Record{}, ctx.Err()
		}
		return Record{}, fmt.Errorf("MCP server %q: %s: %w", server.Name, what, err)
	}
	r := Record{Identity: id, ClientID: server.OAuth.ClientID, Grant: server.OAuth.Grant,
		AccessToken: tok.AccessToken, TokenType: tok.TokenType, Expiry: tok.Expiry}
	if err := store.Save(r); err != nil {
		return Record{}, err
	}
	return r, nil
}

// secretGrant authenticates the client with its secret, through the SDK's
// handler of the extension (discovery as a login's).
func secretGrant(ctx context.Context, client *http.Client, server mcpdecl.Server) (*oauth2.Token, error) {
	h, err := extauth.NewClientCredentialsHandler(&extauth.ClientCredentialsHandlerConfig{
		Credentials: &oauthex.ClientCredentials{ClientID: server.OAuth.ClientID,
			ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: server.OAuth.ClientSecret}},
		HTTPClient: client,
	})
	if err != nil {
		return nil, err
	}
	req, resp, err := challenge(ctx, client, server)
	if err != nil {
		return nil, err
	}
	if err := h.Authorize(ctx, req, resp); err != nil {
		return nil, err
	}
	src, err := h.TokenSource(ctx)
	if err != nil || src == nil {
		return nil, errors.New("the authorization server issued no token")
	}
	return src.Token()
}

// assertionGrant authenticates the client with a JWT it signs with its
// private key (private_key_jwt), which the SDK's handler does not do: the
// token endpoint is discovered as for a login, and the assertion is
// addressed to the authorization server's issuer.
func assertionGrant(ctx context.Context, client *http.Client, server mcpdecl.Server) (*oauth2.Token, error) {
	key, err := parseSigningKey(server.OAuth.PrivateKey)
	if err != nil {
		return nil, err
	}
	_, resp, err := challenge(ctx, client, server)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	ep, err := discoverTokenEndpoint(ctx, client, server.URL, resp)
	if err != nil {
		return nil, err
	}
	assertion, err := clientAssertion(key, server.OAuth.ClientID, ep.issuer, time.Now())
	if err != nil {
		return nil, err
	}
	scopes := server.OAuth.Scopes
	if len(scopes) == 0 {
		scopes = ep.scopes
	}
	cfg := clientcredentials.Config{ClientID: server.OAuth.ClientID, TokenURL: ep.tokenURL, Scopes: scopes,
		AuthStyle:      oauth2.AuthStyleInParams,
		EndpointParams: url.Values{"client_assertion_type": {assertionType}, "client_assertion": {assertion}}}
	return cfg.Token(context.WithValue(ctx, oauth2.HTTPClient, client))
}

// tokenEndpoint is where, and for whom, a machine client asks for tokens:
// the authorization server's issuer and token endpoint, the client
// authentications it takes, the scopes to ask for, and the server's
// resource identifier (RFC 9728).
type tokenEndpoint struct {
	issuer, tokenURL, resource string
	authMethods, scopes        []string
}

// discoverTokenEndpoint follows the server's challenge to its
// protected-resource metadata (named by the challenge, else at the
// well-known places) and its authorization server's metadata; a server
// without protected-resource metadata (protocol 2025-03-26) is its own
// authorization server, with /token as the default endpoint.
func discoverTokenEndpoint(ctx context.Context, client *http.Client, serverURL string, resp *http.Response) (tokenEndpoint, error) {
	challenges, _ := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	var metadataURL string
	var scopes []string
	for _, c := range challenges {
		if c.Scheme == "bearer" {
			metadataURL = c.Params["resource_metadata"]
			scopes = strings.Fields(c.Params["scope"])
		}
	}
	u, err := url.Parse(serverURL)
	if err != nil {
		return tokenEndpoint{}, err
	}
	issuer := u.Scheme + "://" + u.Host
	resource, err := CanonicalResource(serverURL)
	if err != nil {
		return tokenEndpoint{}, err
	}
	for _, candidate := range resourceMetadataURLs(metadataURL, u) {
		prm, err := oauthex.GetProtectedResourceMetadata(ctx, candidate, serverURL, client)
		if err != nil || prm == nil || len(prm.AuthorizationServers) == 0 {
			continue
		}
		issuer = prm.AuthorizationServers[0]
		if prm.Resource != "" {
			resource = prm.Resource
		}
		if len(scopes) == 0 {
			scopes = prm.ScopesSupported
		}
		break
	}
	asm, err := auth.GetAuthServerMetadata(ctx, issuer, client)
	if err != nil {
		return tokenEndpoint{}, fmt.Errorf("the authorization server's metadata: %w", err)
	}
	if asm == nil {
		return tokenEndpoint{issuer: issuer, tokenURL: strings.TrimSuffix(issuer, "/") + "/token", resource: resource, scopes: scopes}, nil
	}
	return tokenEndpoint{issuer: asm.Issuer, tokenURL: asm.TokenEndpoint, resource: resource,
		authMethods: asm.TokenEndpointAuthMethodsSupported, scopes: scopes}, nil
}

// resourceMetadataURLs are where protected-resource metadata may be: the
// URL the challenge names, then the well-known path for the server's
// endpoint, then the well-known path at its root.
func resourceMetadataURLs(named string, server *url.URL) []string {
	var out []string
	if named != "" {
		out = append(out, named)
	}
	at := *server
	at.RawQuery, at.Fragment = "", ""
	at.Path = "/.well-known/oauth-protected-resource/" + strings.TrimLeft(server.Path, "/")
	out = append(out, at.String())
	at.Path = "/.well-known/oauth-protected-resource"
	return append(out, at.String())
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
