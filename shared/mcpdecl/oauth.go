package mcpdecl

import (
	"maps"
	"net/url"
	"slices"
	"strings"
)

// OAuth says a server authenticates with OAuth: by a user's login
// (authorization code + PKCE), or with tokens obtained unattended (Grant).
type OAuth struct {
	// Scopes are requested at login; empty asks for the server's default.
	Scopes []string `json:"scopes,omitempty"`
	// ClientID is a pre-registered client; empty uses dynamic registration.
	ClientID string `json:"clientId,omitempty"`
	// ClientMetadataURL is the HTTPS URL of a client ID metadata document
	// the user publishes: the client_id at authorization servers that
	// advertise client_id_metadata_document_supported. Elsewhere the login
	// falls back to ClientID, else to dynamic registration.
	ClientMetadataURL string `json:"clientMetadataUrl,omitempty"`
	// ClientSecret is the pre-registered client's secret, for a
	// confidential client: always a ${NAME} reference (workflow.yaml is
	// committed), resolved from the environment when the server is used.
	// It is never encoded, so no declaration that is written or sent
	// anywhere carries it.
	ClientSecret string `json:"-"`
	// PrivateKey is, for a client-credentials client that authenticates
	// with a signed JWT (private_key_jwt) instead of a secret, its PEM
	// private key: like ClientSecret, always a ${NAME} reference and
	// never encoded.
	PrivateKey string `json:"-"`
	// Grant is how tokens are obtained: GrantAuthorizationCode (empty: a
	// user logs in in a browser), GrantClientCredentials (a machine
	// client with clientId and clientSecret or privateKey gets them
	// itself, no login) or GrantCrossAppAccess (the user's identity
	// assertion from the enterprise's identity provider, IdP, is
	// exchanged for them, no login).
	Grant string `json:"grant,omitempty"`
	// IdP is, for GrantCrossAppAccess, the enterprise identity provider
	// that exchanges the user's ID token for an authorization grant.
	IdP *IdP `json:"idp,omitempty"`
}

// IdP is the identity provider of cross-app access (the MCP
// enterprise-managed authorization extension): its token endpoint
// exchanges the user's ID token (RFC 8693) for an identity assertion
// authorization grant (ID-JAG) that the MCP server's authorization server
// takes for an access token (RFC 7523).
type IdP struct {
	// TokenURL is the identity provider's token endpoint.
	TokenURL string `json:"tokenUrl"`
	// ClientID is Stratos's client at the identity provider.
	ClientID string `json:"clientId"`
	// ClientSecret is that client's secret, if it is confidential: like
	// OAuth.ClientSecret, always a ${NAME} reference and never encoded.
	ClientSecret string `json:"-"`
	// IDToken is the user's OpenID Connect ID token from the identity
	// provider (obtained by the enterprise's single sign-on, outside
	// Stratos): always a ${NAME} reference and never encoded.
	IDToken string `json:"-"`
}

// The OAuth grants a declaration may name.
const (
	GrantAuthorizationCode = "authorization_code"
	GrantClientCredentials = "client_credentials"
	GrantCrossAppAccess    = "cross_app_access"
)

// ClientCredentials reports whether tokens come from the client-credentials
// grant, with nobody logging in.
func (o *OAuth) ClientCredentials() bool { return o != nil && o.Grant == GrantClientCredentials }

// Unattended reports whether tokens are obtained without anyone at a
// browser (client credentials, cross-app access): there is no login, and
// a token that runs out or is refused is replaced the same way.
func (o *OAuth) Unattended() bool {
	return o != nil && (o.Grant == GrantClientCredentials || o.Grant == GrantCrossAppAccess)
}

// oauth reads the oauth field of an HTTP server: true (a login with
// dynamic registration) or a mapping, whose credentials must come from
// the environment and whose fields must suit its grant.
func (p *parser) oauth(field string, v any) *OAuth {
	switch v := v.(type) {
	case nil:
		return nil
	case bool:
		if !v {
			return nil
		}
		return &OAuth{}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			if !oauthFields[k] {
				p.add(field+"."+k, "unknown field (known: clientId, clientMetadataUrl, clientSecret, grant, idp, privateKey, scopes)")
			}
		}
		o := &OAuth{Scopes: p.strs(field+".scopes", v["scopes"]), ClientID: p.str(field+".clientId", v["clientId"]),
			ClientSecret: p.str(field+".clientSecret", v["clientSecret"]), Grant: p.str(field+".grant", v["grant"]),
			PrivateKey: p.str(field+".privateKey", v["privateKey"]), ClientMetadataURL: p.str(field+".clientMetadataUrl", v["clientMetadataUrl"]),
			IdP: p.idp(field+".idp", v["idp"])}
		p.checkClientSecret(field, o)
		p.checkClientMetadataURL(field, o)
		p.checkGrant(field, o)
		return o
	}
	p.add(field, "must be true or a mapping with scopes, clientId, clientMetadataUrl, clientSecret, privateKey, grant and idp")
	return nil
}

var oauthFields = map[string]bool{"scopes": true, "clientId": true, "clientMetadataUrl": true, "clientSecret": true, "grant": true, "idp": true, "privateKey": true}

var idpFields = map[string]bool{"tokenUrl": true, "clientId": true, "clientSecret": true, "idToken": true}

// idp reads the identity provider of cross-app access: its token
// endpoint, Stratos's client there, and the user's ID token, which like a
// client secret must come from the environment.
func (p *parser) idp(field string, v any) *IdP {
	if v == nil {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		p.add(field, "must be a mapping with tokenUrl, clientId, idToken and, for a confidential client, clientSecret")
		return nil
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !idpFields[k] {
			p.add(field+"."+k, "unknown field (known: clientId, clientSecret, idToken, tokenUrl)")
		}
	}
	idp := &IdP{TokenURL: p.str(field+".tokenUrl", m["tokenUrl"]), ClientID: p.str(field+".clientId", m["clientId"]),
		ClientSecret: p.str(field+".clientSecret", m["clientSecret"]), IDToken: p.str(field+".idToken", m["idToken"])}
	for _, required := range []struct{ name, value string }{{"tokenUrl", idp.TokenURL}, {"clientId", idp.ClientID}, {"idToken", idp.IDToken}} {
		if required.value == "" {
			p.add(field+"."+required.name, "is required for cross-app access")
		}
	}
	p.checkURL(field+".tokenUrl", idp.TokenURL)
	if idp.ClientSecret != "" && !isWholeReference(idp.ClientSecret) {
		p.add(field+".clientSecret", "must be an environment reference such as \"${IDP_CLIENT_SECRET}\", never the secret itself (workflow.yaml is committed)")
	}
	if idp.IDToken != "" && !isWholeReference(idp.IDToken) {
		p.add(field+".idToken", "must be an environment reference such as \"${IDP_ID_TOKEN}\", never the token itself (workflow.yaml is committed)")
	}
	return idp
}

// checkClientMetadataURL accepts a client ID metadata document's URL as
// its specification has it: https with a path (the document's own URL is
// the client_id, so a bare origin cannot be one), used by a user's login
// only: a machine client is registered beforehand.
func (p *parser) checkClientMetadataURL(field string, o *OAuth) {
	raw := o.ClientMetadataURL
	switch {
	case raw == "":
	case o.Grant != "" && o.Grant != GrantAuthorizationCode:
		p.add(field+".clientMetadataUrl", "is for a user's login (grant: authorization_code): a %s client is registered beforehand with clientId", o.Grant)
	case !strings.Contains(raw, "${"):
		if err := CheckClientMetadataURL(raw); err != "" {
			p.add(field+".clientMetadataUrl", "%q %s", raw, err)
		}
	}
}

// CheckClientMetadataURL says what is wrong with a client ID metadata
// document's URL ("" when nothing): it must be https, with a path beyond
// "/", and no fragment.
func CheckClientMetadataURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "https" || u.Host == "" {
		return "must be an https:// URL (the client ID metadata document's own address)"
	}
	if u.Path == "" || u.Path == "/" {
		return "must have a path, such as https://example.com/stratos-client.json: a client ID metadata document's URL is more than an origin"
	}
	if u.Fragment != "" {
		return "must not have a fragment"
	}
	return ""
}

// checkClientSecret accepts a client secret only as an environment
// reference, and only beside the clientId it belongs to: a dynamically
// registered client gets its secret from the registration.
func (p *parser) checkClientSecret(field string, o *OAuth) {
	switch {
	case o.ClientSecret == "":
	case o.ClientID == "":
		p.add(field+".clientSecret", "needs oauth.clientId: a secret belongs to a client registered beforehand")
	case !isWholeReference(o.ClientSecret):
		p.add(field+".clientSecret", "must be an environment reference such as \"${TRACKER_CLIENT_SECRET}\", never the secret itself (workflow.yaml is committed)")
	}
	switch {
	case o.PrivateKey == "":
	case o.Grant != GrantClientCredentials:
		p.add(field+".privateKey", "needs oauth.grant: client_credentials: a private key signs a machine client's token requests")
	case !isWholeReference(o.PrivateKey):
		p.add(field+".privateKey", "must be an environment reference such as \"${TRACKER_PRIVATE_KEY}\" holding the PEM key, never the key itself (workflow.yaml is committed)")
	}
}

// checkGrant accepts the grants Stratos implements; client credentials need
// the client registered beforehand and its secret, as nobody logs in.
func (p *parser) checkGrant(field string, o *OAuth) {
	switch o.Grant {
	case "", GrantAuthorizationCode:
	case GrantClientCredentials:
		if o.ClientID == "" || (o.ClientSecret == "") == (o.PrivateKey == "") {
			p.add(field+".grant", "client_credentials needs oauth.clientId and one of oauth.clientSecret and oauth.privateKey: a machine client is registered beforehand")
		}
	case GrantCrossAppAccess:
		if o.ClientID == "" || o.IdP == nil {
			p.add(field+".grant", "cross_app_access needs oauth.clientId (registered with the server's authorization server beforehand) and oauth.idp (tokenUrl, clientId, idToken)")
		}
	default:
		p.add(field+".grant", "%q is not a grant Stratos uses (known: %s, %s, %s)", o.Grant, GrantAuthorizationCode, GrantClientCredentials, GrantCrossAppAccess)
	}
	if o.IdP != nil && o.Grant != GrantCrossAppAccess {
		p.add(field+".idp", "needs oauth.grant: cross_app_access: an identity provider stands in for the login only there")
	}
}
