package host

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/sibling"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// candidate is one harness/model/provider combination automatic selection
// may try, in the catalog's order.
type candidate struct {
	Harness  string `json:"harness"`
	Model    string `json:"model"`
	Provider string `json:"provider"`
}

// candidatesFunc returns the ordered candidates for a model list.
type candidatesFunc func(ctx context.Context, models []string) ([]candidate, error)

// catalogCandidates asks stratos-models for the candidate order of the
// model-based harness preference (docs/design/harness-selection.md): every
// model with its first-party harness in declared order, then every model
// through OpenCode.
func catalogCandidates(stderr io.Writer) candidatesFunc {
	return func(ctx context.Context, models []string) ([]candidate, error) {
		args := []string{"candidates", "--json"}
		for _, m := range models {
			args = append(args, "--model", m)
		}
		var out struct {
			Candidates []candidate `json:"candidates"`
		}
		if err := sibling.RunJSON(ctx, "stratos-models", args, nil, &out, stderr); err != nil {
			return nil, agentproto.Errorf(agentproto.CodeConfiguration, "select a harness for models %s: %v", strings.Join(models, ", "), err).Wrap(err)
		}
		return out.Candidates, nil
	}
}

// selector is the adapter of an agent without an explicit harness. It walks
// the candidates: a candidate whose harness is missing, unauthenticated or
// rejects the model (structured, before any output) gives way to the next;
// anything else — rate limits and ordinary failures included — is final.
// The first execute that gets past the rejection window pins the session.
type selector struct {
	name     string
	cands    []candidate
	open     func(c candidate) (adapter.Adapter, error)
	cur      adapter.Adapter
	next     int
	pinned   bool
	attempts []string
}

func (s *selector) Initialize(ctx context.Context) error {
	for s.next < len(s.cands) {
		c := s.cands[s.next]
		s.next++
		a, err := s.open(c)
		if err == nil {
			if err = a.Initialize(ctx); err == nil {
				s.cur = a
				return nil
			}
		}
		if !fallsBack(err) {
			return err
		}
		s.attempts = append(s.attempts, fmt.Sprintf("%s/%s: %v", c.Harness, c.Model, err))
	}
	return agentproto.Errorf(agentproto.CodeModelUnavailable, "agent %q: no harness could serve its models:\n  %s", s.name, strings.Join(s.attempts, "\n  ")).
		WithDetails(map[string]any{"attempts": s.attempts})
}

func (s *selector) Execute(ctx context.Context, prompt string) (adapter.Result, error) {
	for {
		res, err := s.cur.Execute(ctx, prompt)
		if s.pinned || err == nil || !selectableRejection(err) || s.next >= len(s.cands) {
			s.pinned = true
			return res, err
		}
		// The model was rejected before any work: close that conversation
		// first, then send the unchanged prompt to the next candidate.
		s.attempts = append(s.attempts, fmt.Sprintf("%s: %v", s.cands[s.next-1].Harness, err))
		if cerr := s.cur.Close(ctx); cerr != nil {
			s.pinned = true
			return res, errors.Join(err, cerr)
		}
		s.cur = nil
		if ierr := s.Initialize(ctx); ierr != nil {
			return res, ierr
		}
	}
}

func (s *selector) Cancel() {
	if s.cur != nil {
		s.cur.Cancel()
	}
}

func (s *selector) Close(ctx context.Context) error {
	if s.cur == nil {
		return nil
	}
	return s.cur.Close(ctx)
}

// fallsBack reports whether an initialization failure lets selection try
// the next candidate: a missing harness, missing authentication, or an
// unavailable model.
func fallsBack(err error) bool {
	var e *agentproto.Error
	if !errors.As(err, &e) {
		return false
	}
	switch e.Code {
	case agentproto.CodeHarnessUnavailable, agentproto.CodeAuthentication:
		return true
	case agentproto.CodeModelUnavailable:
		return e.Details["selectable"] != false
	}
	return false
}

// selectableRejection reports a structured model rejection that happened
// before the conversation produced anything, which the adapter marks with
// details.selectable.
func selectableRejection(err error) bool {
	var e *agentproto.Error
	return errors.As(err, &e) && e.Code == agentproto.CodeModelUnavailable && e.Details["selectable"] == true
}
