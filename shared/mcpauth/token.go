package mcpauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/gofrs/flock"
	"golang.org/x/oauth2"

	"github.com/stratoscli/stratos/shared/mcpdecl"
	"github.com/stratoscli/stratos/shared/roots"
)

// MinValidity is how long an access token must stay valid to be used:
// one that expires sooner is refreshed first, and a run does not start
// with less (a request must not outlive its token).
const MinValidity = 5 * time.Minute

// lockRetry is how often a process waiting for another's refresh retries
// the lock.
const lockRetry = 50 * time.Millisecond

// Problems a server's credentials can have.
const (
	// ReasonNotLoggedIn: no login is stored.
	ReasonNotLoggedIn = "not_logged_in"
	// ReasonExpiring: the token expires within MinValidity and there is no
	// refresh token.
	ReasonExpiring = "expiring"
	// ReasonRefreshFailed: the authorization server refused the refresh or
	// could not be reached.
	ReasonRefreshFailed = "refresh_failed"
)

// CredentialError says why a server has no usable access token.
type CredentialError struct {
	Resource string
	Reason   string
	// Remaining is how long the token stays valid (ReasonExpiring).
	Remaining time.Duration
	Err       error
}

func (e *CredentialError) Error() string {
	switch e.Reason {
	case ReasonNotLoggedIn:
		return fmt.Sprintf("not logged in to %s", e.Resource)
	case ReasonExpiring:
		if e.Remaining <= 0 {
			return fmt.Sprintf("the access token for %s has expired and cannot be refreshed", e.Resource)
		}
		return fmt.Sprintf("the access token for %s expires in %s and cannot be refreshed", e.Resource, e.Remaining.Truncate(time.Second))
	}
	return fmt.Sprintf("refreshing the access token for %s failed: %v", e.Resource, e.Err)
}

func (e *CredentialError) Unwrap() error { return e.Err }

// DefaultTokens hands out tokens from the store under ~/.stratos.
func DefaultTokens() (Tokens, error) {
	home, err := roots.StratosHome()
	if err != nil {
		return Tokens{}, err
	}
	return Tokens{Store: Open(home), HTTPClient: NewHTTPClient()}, nil
}

// Tokens hands out access tokens from a store.
type Tokens struct {
	Store Store
	// HTTPClient carries refresh requests (nil: a default client).
	HTTPClient *http.Client
	// Now is the clock (nil: time.Now); tests move it.
	Now func() time.Time
	// StepUp logs in to a server again once it has asked for scopes the
	// stored token lacks (see Handler); the request is then sent again.
	// Nil for a run, which has nobody at a browser: the request fails
	// naming the login command, which asks for those scopes.
	StepUp func(ctx context.Context, server mcpdecl.Server) error
}

func (t Tokens) now() time.Time {
	if t.Now != nil {
		return t.Now()
	}
	return time.Now()
}

// Token returns id's access token for a request, refreshed first when it
// has less than MinValidity left and a refresh token. A token that cannot
// be refreshed is returned while it is still valid (the request may still
// succeed); an expired one is a *CredentialError.
func (t Tokens) Token(ctx context.Context, id Identity) (Record, error) {
	return t.token(ctx, id, "")
}

// token is Token for a client whose secret (declared, "" for none) comes
// from the environment rather than the record.
func (t Tokens) token(ctx context.Context, id Identity, secret string) (Record, error) {
	r, err := t.fresh(ctx, id, secret)
	var ce *CredentialError
	if errors.As(err, &ce) && ce.Reason == ReasonRefreshFailed && r.Remaining(t.now()) > 0 {
		return r, nil
	}
	return r, err
}

// Check is Token for a run about to start: the token must have at least
// MinValidity left after a refresh attempt, and a failed refresh is an
// error even while the old token lasts.
func (t Tokens) Check(ctx context.Context, id Identity) (Record, error) {
	return t.check(ctx, id, "")
}

func (t Tokens) check(ctx context.Context, id Identity, secret string) (Record, error) {
	r, err := t.fresh(ctx, id, secret)
	if err != nil {
		return Record{}, err
	}
	if left := r.Remaining(t.now()); left < MinValidity {
		return Record{}, &CredentialError{Resource: id.Resource, Reason: ReasonExpiring, Remaining: left}
	}
	return r, nil
}

// fresh returns id's record, refreshed when it has less than MinValidity
// left and can be. A refresh that fails returns the old record with a
// ReasonRefreshFailed error; an expired token without a refresh token is a
// ReasonExpiring error.
func (t Tokens) fresh(ctx context.Context, id Identity, secret string) (Record, error) {
	r, err := t.load(id)
	if err != nil || r.Remaining(t.now()) >= MinValidity {
		return r, err
	}
	if r.RefreshToken == "" {
		return t.unexpired(r)
	}
	return t.refresh(ctx, id, secret)
}

func (t Tokens) load(id Identity) (Record, error) {
	r, err := t.Store.Load(id)
	if errors.Is(err, ErrNotFound) {
		return Record{}, &CredentialError{Resource: id.Resource, Reason: ReasonNotLoggedIn}
	}
	return r, err
}

// unexpired returns r unless its token has expired.
func (t Tokens) unexpired(r Record) (Record, error) {
	if left := r.Remaining(t.now()); left <= 0 {
		return Record{}, &CredentialError{Resource: r.Resource, Reason: ReasonExpiring, Remaining: left}
	}
	return r, nil
}

// refresh renews id's token under the record's lock: the first process
// refreshes, the others find the renewed record once they hold the lock
// (a refresh token may be single-use, so a second refresh could fail).
func (t Tokens) refresh(ctx context.Context, id Identity, secret string) (Record, error) {
	if err := t.Store.ensureDir(); err != nil {
		return Record{}, err
	}
	lock := flock.New(t.Store.path(id)+".lock", flock.SetPermissions(0o600))
	if _, err := lock.TryLockContext(ctx, lockRetry); err != nil {
		return Record{}, fmt.Errorf("lock the MCP credentials of %s: %w", id.Resource, err)
	}
	defer lock.Unlock()
	r, err := t.load(id)
	switch {
	case err != nil:
		return Record{}, err
	case r.Remaining(t.now()) >= MinValidity:
		return r, nil // another process refreshed it meanwhile
	case r.RefreshToken == "":
		return t.unexpired(r)
	}
	tok, err := t.exchange(ctx, r, secret)
	if err != nil {
		return r, &CredentialError{Resource: id.Resource, Reason: ReasonRefreshFailed, Err: err}
	}
	r.AccessToken, r.Expiry = tok.AccessToken, tok.Expiry
	if tok.TokenType != "" {
		r.TokenType = tok.TokenType
	}
	if tok.RefreshToken != "" {
		r.RefreshToken = tok.RefreshToken
	}
	if err := t.Store.Save(r); err != nil {
		return Record{}, err
	}
	return r, nil
}

// exchange refreshes r's token. The declared secret belongs to the
// declared client: a login that used another (a client ID metadata
// document's URL, or a registered client) authenticates with what its
// record holds, if anything, and never with that secret.
func (t Tokens) exchange(ctx context.Context, r Record, secret string) (*oauth2.Token, error) {
	if secret == "" || r.ClientID != r.Identity.ClientID {
		secret = r.ClientSecret
	}
	cfg := oauth2.Config{ClientID: r.ClientID, ClientSecret: secret, Scopes: r.Scopes,
		Endpoint: oauth2.Endpoint{TokenURL: r.TokenURL, AuthStyle: oauth2.AuthStyle(r.AuthStyle)}}
	if t.HTTPClient != nil {
		ctx = context.WithValue(ctx, oauth2.HTTPClient, t.HTTPClient)
	}
	// A token without an access token is invalid, so the source refreshes.
	return cfg.TokenSource(ctx, &oauth2.Token{RefreshToken: r.RefreshToken}).Token()
}
