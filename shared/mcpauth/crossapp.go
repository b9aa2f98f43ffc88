package mcpauth

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/stratoscli/stratos/shared/mcpdecl"
)

// grantTypeJWTBearer is the grant of RFC 7523 that an ID-JAG is presented
// with at the MCP server's authorization server.
const grantTypeJWTBearer = "urn:ietf:params:oauth:grant-type:jwt-bearer"

// crossAppGrant obtains a token by cross-app access (the MCP
// enterprise-managed authorization extension): the MCP server's
// authorization server and resource are discovered as for a login; the
// identity provider exchanges the user's ID token for an identity
// assertion authorization grant (ID-JAG) addressed to that authorization
// server and resource (RFC 8693); the authorization server takes the
// grant from the declared client for an access token (RFC 7523). Nobody
// is sent to a browser: the ID token comes from the environment. The
// SDK's EnterpriseHandler does the same steps but always authenticates
// the client in the form, which an authorization server that offers only
// client_secret_basic refuses; so the second step is done here.
func crossAppGrant(ctx context.Context, client *http.Client, server mcpdecl.Server) (*oauth2.Token, error) {
	o := server.OAuth
	_, resp, err := challenge(ctx, client, server)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	ep, err := discoverTokenEndpoint(ctx, client, server.URL, resp)
	if err != nil {
		return nil, err
	}
	scopes := o.Scopes
	if len(scopes) == 0 {
		scopes = ep.scopes
	}
	idpClient := &oauthex.ClientCredentials{ClientID: o.IdP.ClientID}
	if o.IdP.ClientSecret != "" {
		idpClient.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: o.IdP.ClientSecret}
	}
	grant, err := oauthex.ExchangeToken(ctx, o.IdP.TokenURL, &oauthex.TokenExchangeRequest{
		RequestedTokenType: oauthex.TokenTypeIDJAG,
		Audience:           ep.issuer,
		Resource:           ep.resource,
		Scope:              scopes,
		SubjectToken:       o.IdP.IDToken,
		SubjectTokenType:   oauthex.TokenTypeIDToken,
	}, idpClient, client)
	if err != nil {
		return nil, fmt.Errorf("the identity provider (mcp.servers.%s.oauth.idp.tokenUrl) did not exchange the ID token: %w", server.Name, err)
	}
	cfg := oauth2.Config{ClientID: o.ClientID, ClientSecret: o.ClientSecret,
		Endpoint: oauth2.Endpoint{TokenURL: ep.tokenURL, AuthStyle: clientAuthStyle(ep.authMethods, o.ClientSecret)}}
	params := []oauth2.AuthCodeOption{oauth2.SetAuthURLParam("grant_type", grantTypeJWTBearer), oauth2.SetAuthURLParam("assertion", grant.AccessToken)}
	if len(scopes) > 0 {
		params = append(params, oauth2.SetAuthURLParam("scope", strings.Join(scopes, " ")))
	}
	tok, err := cfg.Exchange(context.WithValue(ctx, oauth2.HTTPClient, client), "", params...)
	if err != nil {
		return nil, fmt.Errorf("the authorization server did not take the identity provider's grant: %w", err)
	}
	return tok, nil
}

// clientAuthStyle is how a client with secret authenticates at a token
// endpoint that names the methods it takes: in the form where offered
// (OAuth 2.1's preference), else by HTTP Basic; a public client (no
// secret) names itself in the form.
func clientAuthStyle(methods []string, secret string) oauth2.AuthStyle {
	switch {
	case secret == "" || slices.Contains(methods, "client_secret_post"):
		return oauth2.AuthStyleInParams
	case slices.Contains(methods, "client_secret_basic"):
		return oauth2.AuthStyleInHeader
	}
	return oauth2.AuthStyleAutoDetect
}
