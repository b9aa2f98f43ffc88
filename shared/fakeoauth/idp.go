package fakeoauth

import (
	"crypto/rand"
	"net/http"
)

// IdPTokenPath is the token endpoint of the identity provider a server
// with Options.IDToken plays, under its issuer.
const IdPTokenPath = "/idp/token"

// IdPClient is Stratos's client at that identity provider.
const IdPClient = "stratos-at-idp"

// PrefixGrant starts the ID-JAGs the identity provider issues.
const PrefixGrant = "fake-idjag-"

// The token types and grant of cross-app access (RFC 8693, RFC 7523 and
// the MCP enterprise-managed authorization extension).
const (
	grantTokenExchange = "urn:ietf:params:oauth:grant-type:token-exchange"
	grantJWTBearer     = "urn:ietf:params:oauth:grant-type:jwt-bearer"
	tokenTypeIDToken   = "urn:ietf:params:oauth:token-type:id_token"
	tokenTypeIDJAG     = "urn:ietf:params:oauth:token-type:id-jag"
)

// exchangeIDToken is the identity provider's token exchange: the user's ID
// token, from IdPClient, for an ID-JAG addressed to this authorization
// server (audience: its issuer) and naming the resource. A real ID-JAG is
// a signed JWT; this one is an opaque value the token endpoint remembers.
func (s *Server) exchangeIDToken(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_request"})
		return
	}
	f := r.PostForm
	s.log(r, "grant="+f.Get("grant_type")+" audience="+f.Get("audience")+" resource="+f.Get("resource"))
	switch {
	case f.Get("grant_type") != grantTokenExchange || f.Get("requested_token_type") != tokenTypeIDJAG || f.Get("subject_token_type") != tokenTypeIDToken:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_request", "error_description": "want a token exchange of an ID token for an ID-JAG"})
	case requestClientID(r) != IdPClient:
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client"})
	case f.Get("subject_token") != s.o.IDToken:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant", "error_description": "unknown ID token"})
	case f.Get("audience") != s.issuer || f.Get("resource") == "":
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_target", "error_description": "audience must be the authorization server's issuer, and resource is required"})
	default:
		grant := PrefixGrant + rand.Text()
		s.mu.Lock()
		s.grants[grant] = f.Get("resource")
		s.mu.Unlock()
		writeJSON(w, http.StatusOK, map[string]any{"access_token": grant, "issued_token_type": tokenTypeIDJAG, "token_type": "N_A", "expires_in": 300})
	}
}

// jwtBearer takes an ID-JAG the identity provider issued, once, from the
// pre-registered client (authenticated by the token endpoint when it is
// confidential) for an access token; like client credentials, no refresh
// token.
func (s *Server) jwtBearer(w http.ResponseWriter, r *http.Request) {
	assertion := r.PostForm.Get("assertion")
	s.mu.Lock()
	_, ok := s.grants[assertion]
	delete(s.grants, assertion)
	s.mu.Unlock()
	switch {
	case requestClientID(r) != PreregisteredClient:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "unauthorized_client"})
	case !ok:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
	default:
		s.issueToClient(w, r)
	}
}
