package mcpauth_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/fakeoauth"
	"github.com/stratoscli/stratos/shared/mcpauth"
	"github.com/stratoscli/stratos/shared/mcpdecl"
)

const clientDocument = "https://stratos.example.test/oauth/client.json"

// An authorization server that advertises client ID metadata documents
// gets the declared document's URL as client_id: no registration, and the
// login refreshes under that client.
func TestLoginUsesTheClientMetadataDocumentWhereAdvertised(t *testing.T) {
	url, log := serve(t, fakeoauth.Options{ClientMetadataURL: clientDocument, TokenLifetime: 2 * time.Minute, RefreshedLifetime: time.Hour})
	store := mcpauth.Open(t.TempDir())
	r := login(t, store, url, &mcpdecl.OAuth{ClientMetadataURL: clientDocument, ClientID: fakeoauth.PreregisteredClient})
	if r.ClientID != clientDocument {
		t.Fatalf("client %q, want the document's URL %s", r.ClientID, clientDocument)
	}
	if strings.Contains(log.String(), "/register") {
		t.Errorf("registered although the server takes client ID metadata documents:\n%s", log)
	}
	fresh, err := (&mcpauth.Tokens{Store: store}).Check(context.Background(), r.Identity)
	if err != nil || fresh.AccessToken == r.AccessToken {
		t.Fatalf("refresh under the document's client: %v", err)
	}
}

// Where the authorization server does not advertise them, the document is
// not used: the login falls back to the declared clientId, else to
// dynamic registration.
func TestLoginFallsBackWithoutClientMetadataDocuments(t *testing.T) {
	url, log := serve(t, fakeoauth.Options{})
	r := login(t, mcpauth.Open(t.TempDir()), url, &mcpdecl.OAuth{ClientMetadataURL: clientDocument})
	if !strings.HasPrefix(r.ClientID, "client-") || !strings.Contains(log.String(), "POST /register") {
		t.Errorf("client %q: want a dynamically registered one\n%s", r.ClientID, log)
	}
	url, _ = serve(t, fakeoauth.Options{NoRegistration: true})
	r = login(t, mcpauth.Open(t.TempDir()), url, &mcpdecl.OAuth{ClientMetadataURL: clientDocument, ClientID: fakeoauth.PreregisteredClient})
	if r.ClientID != fakeoauth.PreregisteredClient {
		t.Errorf("client %q, want the declared %s", r.ClientID, fakeoauth.PreregisteredClient)
	}
}

// With no way left (no support advertised, no registration, no clientId)
// the error names the server and the field, and why the document was not
// used; a resolved URL that is no document's URL is refused before any
// request.
func TestClientMetadataDocumentErrorsNameServerAndField(t *testing.T) {
	url, log := serve(t, fakeoauth.Options{NoRegistration: true})
	server := mcpdecl.Server{Name: "tracker", Transport: mcpdecl.TransportHTTP, URL: url, OAuth: &mcpdecl.OAuth{ClientMetadataURL: clientDocument}}
	_, err := mcpauth.Login(context.Background(), mcpauth.Open(t.TempDir()), server, mcpauth.LoginOptions{Visit: follow})
	if err == nil || !strings.Contains(err.Error(), `MCP server "tracker"`) ||
		!strings.Contains(err.Error(), "mcp.servers.tracker.oauth.clientMetadataUrl is the client_id only where") ||
		!strings.Contains(err.Error(), "client_id_metadata_document_supported") {
		t.Fatalf("err = %v", err)
	}
	before := log.String()
	server.OAuth.ClientMetadataURL = "http://stratos.example.test/client.json" // as a ${NAME} may resolve
	_, err = mcpauth.Login(context.Background(), mcpauth.Open(t.TempDir()), server, mcpauth.LoginOptions{Visit: follow})
	if err == nil || !strings.Contains(err.Error(), `mcp.servers.tracker.oauth.clientMetadataUrl "http://stratos.example.test/client.json" must be an https:// URL`) {
		t.Fatalf("err = %v", err)
	}
	if log.String() != before {
		t.Errorf("requests were sent for an invalid document URL:\n%s", strings.TrimPrefix(log.String(), before))
	}
}

// A login that used the document's URL refreshes as that public client:
// the secret declared for clientId is not sent with another client's ID
// (the authorization server would refuse it, and it is not that client's).
func TestClientMetadataDocumentLoginRefreshesWithoutTheDeclaredSecret(t *testing.T) {
	const secret = "conf-secret-Hv52"
	url, log := serve(t, fakeoauth.Options{ClientMetadataURL: clientDocument, ClientSecret: secret, TokenLifetime: 2 * time.Minute, RefreshedLifetime: time.Hour})
	store := mcpauth.Open(t.TempDir())
	server := mcpdecl.Server{Name: "tracker", Transport: mcpdecl.TransportHTTP, URL: url,
		OAuth: &mcpdecl.OAuth{ClientMetadataURL: clientDocument, ClientID: fakeoauth.PreregisteredClient, ClientSecret: secret}}
	r, err := mcpauth.Login(context.Background(), store, server, mcpauth.LoginOptions{Visit: follow})
	if err != nil || r.ClientID != clientDocument {
		t.Fatalf("login: client %q, %v", r.ClientID, err)
	}
	fresh, err := (&mcpauth.Tokens{Store: store}).ForServer(context.Background(), "triage", server, true)
	if err != nil || fresh.AccessToken == r.AccessToken {
		t.Fatalf("refresh as the document's client: %v\n%s", err, log)
	}
}
