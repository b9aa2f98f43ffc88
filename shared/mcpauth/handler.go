package mcpauth

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"golang.org/x/oauth2"

	"github.com/stratoscli/stratos/shared/mcpdecl"
)

// LoginCommand is the command that logs in to server for workflow.
func LoginCommand(workflow, server string) string {
	return fmt.Sprintf("stratos mcp login %s %s", workflow, server)
}

// ServerError says which declared server of which workflow lacks usable
// credentials, and how to get them.
type ServerError struct {
	Workflow, Server string
	Err              error
	// Machine is set for a client-credentials server, which nobody logs
	// in to: the error does not point at the login command.
	Machine bool
}

func (e *ServerError) Error() string {
	if e.Machine {
		return fmt.Sprintf("MCP server %q: %v", e.Server, e.Err)
	}
	return fmt.Sprintf("MCP server %q: %v; run `%s`", e.Server, e.Err, LoginCommand(e.Workflow, e.Server))
}

func (e *ServerError) Unwrap() error { return e.Err }

// ForServer returns the access token for a declared server (resolved, with
// oauth), refreshed when needed; failures are a *ServerError naming the
// login command.
func (t Tokens) ForServer(ctx context.Context, workflow string, server mcpdecl.Server, check bool) (Record, error) {
	id, err := IdentityOf(server.URL, server.OAuth.ClientID)
	if err != nil {
		return Record{}, &ServerError{Workflow: workflow, Server: server.Name, Err: err}
	}
	if server.OAuth.Unattended() {
		r, err := t.clientCredentials(ctx, server, id)
		if err != nil {
			return Record{}, &ServerError{Workflow: workflow, Server: server.Name, Err: err, Machine: true}
		}
		return r, nil
	}
	get := t.token
	if check {
		get = t.check
	}
	r, err := get(ctx, id, server.OAuth.ClientSecret)
	if err != nil {
		return Record{}, &ServerError{Workflow: workflow, Server: server.Name, Err: err}
	}
	return r, nil
}

// Handler is the SDK's OAuthHandler for a connection to server: every HTTP
// request carries the stored access token, renewed when it is about to
// expire, so a long-lived client never sends an expired one. It does not
// log in: a server that refuses the token is an error naming `stratos mcp
// login`, since a run has nobody at a browser.
func (t Tokens) Handler(workflow string, server mcpdecl.Server) auth.OAuthHandler {
	return handler{tokens: t, workflow: workflow, server: server}
}

type handler struct {
	tokens   Tokens
	workflow string
	server   mcpdecl.Server
}

func (h handler) TokenSource(ctx context.Context) (oauth2.TokenSource, error) {
	return tokenSource{ctx: ctx, h: h}, nil
}

// Authorize is called when the server refuses a request's token. A 403
// insufficient_scope is a step-up: the scopes it names are noted with the
// login, so that the next login asks for them, and Tokens.StepUp (when
// set) logs in again at once and the request is retried. Anything else
// means the login is no longer good.
func (h handler) Authorize(ctx context.Context, _ *http.Request, resp *http.Response) error {
	resp.Body.Close()
	scopes, stepUp := insufficientScope(resp)
	if !stepUp && h.server.OAuth.Unattended() {
		return h.renewClientCredentials(ctx)
	}
	if !stepUp {
		return &ServerError{Workflow: h.workflow, Server: h.server.Name,
			Err: fmt.Errorf("the server refused the stored access token (HTTP %d)", resp.StatusCode)}
	}
	if err := h.tokens.noteStepUp(h.server, scopes); err != nil {
		return &ServerError{Workflow: h.workflow, Server: h.server.Name, Err: err}
	}
	if h.tokens.StepUp != nil {
		if err := h.tokens.StepUp(ctx, h.server); err != nil {
			return &ServerError{Workflow: h.workflow, Server: h.server.Name, Err: fmt.Errorf("log in again for scopes %s: %w", strings.Join(scopes, " "), err)}
		}
		return nil
	}
	return &ServerError{Workflow: h.workflow, Server: h.server.Name,
		Err: fmt.Errorf("the server needs scopes %s, more than the login has (insufficient_scope)", strings.Join(scopes, " "))}
}

// renewClientCredentials replaces a token the server no longer takes (it
// was revoked, or the server restarted) with a new one, which a machine
// client can obtain without anyone; the request is then sent again.
func (h handler) renewClientCredentials(ctx context.Context) error {
	id, err := IdentityOf(h.server.URL, h.server.OAuth.ClientID)
	if err == nil {
		_, err = h.tokens.Store.Delete(id)
	}
	if err == nil {
		_, err = h.tokens.clientCredentials(ctx, h.server, id)
	}
	if err != nil {
		return &ServerError{Workflow: h.workflow, Server: h.server.Name, Err: err, Machine: true}
	}
	return nil
}

// tokenSource reads the store on every request: another process may have
// refreshed the token since.
type tokenSource struct {
	ctx context.Context
	h   handler
}

func (s tokenSource) Token() (*oauth2.Token, error) {
	r, err := s.h.tokens.ForServer(s.ctx, s.h.workflow, s.h.server, false)
	if err != nil {
		return nil, err
	}
	return &oauth2.Token{AccessToken: r.AccessToken, TokenType: "Bearer", Expiry: r.Expiry}, nil
}
