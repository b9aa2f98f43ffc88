package opencode

import (
	"context"
	"errors"
	"regexp"
)

// A resumed run's agent continues its OpenCode session. OpenCode keeps its
// sessions (their messages and parts, which it sends back to the model
// with every prompt) in one SQLite database; a session with a state
// directory keeps that database there (isolation.db), and the agent host
// gives a resumed session a copy of the resumed one's state directory, so
// the new server opens the earlier conversation and the next prompt goes
// to the same session ID. Nothing else of the private root is needed: the
// configuration, plugin and password are made anew, and the credentials
// stay where OpenCode reads them (the environment, the user's credentials
// list linked into the private data directory), never in the state.

// sessionIDPattern is OpenCode's session ID: "ses_" and alphanumerics. A
// resumed ID comes from the run's journal and goes into a route's path.
var sessionIDPattern = regexp.MustCompile(`^ses_[0-9A-Za-z]+$`)

// openSession is the OpenCode session of the agent: the resumed one when
// the agent continues an earlier execution's, else a new one.
func (s *session) openSession(ctx context.Context, st *startup) (string, error) {
	if r := s.spec.Resume; r != nil && r.SessionID != "" {
		return s.continueSession(ctx, st.c, r.SessionID, st.iso.db)
	}
	return s.createSession(ctx, st.c)
}

// continueSession checks that db, the database, has session id. It keeps the
// permission rules it was created with: the agent's configuration is part
// of what a journalled execute must match, so they are the agent's still.
func (s *session) continueSession(ctx context.Context, c *client, id, db string) (string, error) {
	if !sessionIDPattern.MatchString(id) {
		return "", s.initError("the resumed session ID %q is not an OpenCode session ID (ses_ and letters or digits)", id)
	}
	var res struct {
		ID string `json:"id"`
	}
	err := c.call(ctx, "GET", "/session/"+id, nil, &res)
	var he *httpError
	switch {
	case errors.As(err, &he) && he.Status == 404:
		return "", s.initError("the resumed session %s is not in the state directory's database %s", id, db)
	case err != nil:
		return "", s.initError("read the resumed session %s: %v", id, err)
	}
	return res.ID, nil
}
