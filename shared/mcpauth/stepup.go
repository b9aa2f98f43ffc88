package mcpauth

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gofrs/flock"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/stratoscli/stratos/shared/mcpdecl"
)

// stepUpLockWait bounds the wait for the record's lock, which another
// process holds only while it refreshes the token (one HTTP exchange).
const stepUpLockWait = 30 * time.Second

// insufficientScope returns the scopes a 403 answer asks for when it is a
// step-up (a Bearer challenge with error="insufficient_scope").
func insufficientScope(resp *http.Response) ([]string, bool) {
	if resp.StatusCode != http.StatusForbidden {
		return nil, false
	}
	challenges, err := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	if err != nil {
		return nil, false
	}
	for _, c := range challenges {
		if c.Scheme == "bearer" && c.Params["error"] == "insufficient_scope" {
			return strings.Fields(c.Params["scope"]), true
		}
	}
	return nil, false
}

// NoteStepUp notes, when resp is a step-up (403 insufficient_scope), the
// scopes it asks for with server's login, for the next login to ask for,
// and returns them; nil for any other answer. It reads only the headers,
// so a proxy can call it on an answer it passes on.
func (t Tokens) NoteStepUp(server mcpdecl.Server, resp *http.Response) ([]string, error) {
	scopes, ok := insufficientScope(resp)
	if !ok {
		return nil, nil
	}
	return scopes, t.noteStepUp(server, scopes)
}

// noteStepUp adds scopes to the stored login's StepUpScopes, for the next
// login to ask for. It holds the record's lock, as a refresh does: two
// calls asking for different scopes at once (or a refresh saving the
// record meanwhile) would otherwise each save the record they read, and
// the scopes of one would be lost.
func (t Tokens) noteStepUp(server mcpdecl.Server, scopes []string) error {
	id, err := IdentityOf(server.URL, server.OAuth.ClientID)
	if err != nil {
		return err
	}
	if err := t.Store.ensureDir(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), stepUpLockWait)
	defer cancel()
	lock := flock.New(t.Store.path(id)+".lock", flock.SetPermissions(0o600))
	if _, err := lock.TryLockContext(ctx, lockRetry); err != nil {
		return fmt.Errorf("lock the MCP credentials of %s: %w", id.Resource, err)
	}
	defer lock.Unlock()
	r, err := t.load(id)
	if err != nil {
		return err
	}
	merged := unionScopes(r.StepUpScopes, scopes)
	if slices.Equal(merged, r.StepUpScopes) {
		return nil
	}
	r.StepUpScopes = merged
	return t.Store.Save(r)
}

// unionScopes is a, then the scopes of b that a lacks.
func unionScopes(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
