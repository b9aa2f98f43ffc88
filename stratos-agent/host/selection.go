package host

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/catalog"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
)

// candidate is one harness/model combination selection may try, in order.
// Provider is the catalog's provider for the combination; it reaches the
// adapter only when the user wrote it: backend selection otherwise stays
// with the harness and its adapter (docs/design/harness-selection.md).
type candidate struct {
	Harness  string
	Model    string
	Provider string
	// Price is the catalog's price of the candidate's native ID, for turns
	// whose harness reports no cost (nil: unknown, and for explicit
	// harnesses, which are chosen without the catalog).
	Price *modelsapi.Price
	// Native is the harness's own model string ("" when only the adapter
	// knows it: an explicit harness on a backend of its choosing), what
	// its native model list is checked against (native.go).
	Native string
	// Source names what answered for the candidate: the packaged catalog
	// (modelsapi.SourcePackaged), the harness's own list, or nothing (an
	// explicit harness's model, which only its adapter checks).
	Source string
}

// candidatesFunc returns the ordered candidates for a model list.
type candidatesFunc func(ctx context.Context, models []string) ([]candidate, error)

// catalogCandidates asks stratos-models for the candidate order of the
// model-based harness preference (docs/design/harness-selection.md): every
// model with its first-party harness in declared order, then every model
// through OpenCode. It sends the rules of the harnesses the host has
// registered, so selection knows exactly those.
func catalogCandidates(stderr io.Writer, rules map[string]modelsapi.HarnessRules) candidatesFunc {
	c := catalog.Sibling{Stderr: stderr}
	return func(ctx context.Context, models []string) ([]candidate, error) {
		cands, err := c.Candidates(ctx, catalog.Query{Models: models, Rules: rules})
		if err != nil {
			return nil, agentproto.Errorf(agentproto.CodeConfiguration, "select a harness for models %s: %v", strings.Join(models, ", "), err).Wrap(err)
		}
		out := make([]candidate, len(cands))
		for i, cd := range cands {
			out[i] = candidate{Harness: cd.Harness, Model: cd.Model, Provider: cd.Provider, Price: cd.Cost,
				Native: cd.NativeModel(), Source: cd.Source}
		}
		return out, nil
	}
}

// explicitCandidates are the candidates of an agent whose harness is
// configured: each model of its list in order on that harness (one
// candidate without a model when the list is empty: the harness's default).
func explicitCandidates(harness string, models []string) []candidate {
	if len(models) == 0 {
		return []candidate{{Harness: harness}}
	}
	out := make([]candidate, len(models))
	for i, m := range models {
		out[i] = candidate{Harness: harness, Model: m}
	}
	return out
}

// selector is the adapter of every agent session: it walks the candidates
// (harness and model fallback for every adapter lives here). A candidate
// whose adapter refuses it with a rejection that allows another try
// (missing harness, missing authentication, a model refused before any
// work) gives way to the next; anything else — rate limits and ordinary
// failures included — is final. The first execute that gets past the
// rejection window pins the session to its candidate.
type selector struct {
	name  string
	cands []candidate
	open  func(c candidate) (adapter.Adapter, error)
	emit  func(adapter.Event)

	// mu guards what Cancel and Close read while Initialize or Execute
	// move between candidates.
	mu  sync.Mutex
	cur adapter.Adapter // the initialized adapter of cands[i]
	// opened are the adapters made so far by candidate index, kept for
	// the retry after a failed initialization (the next explicit execute
	// tries again with the same adapters: a failed Initialize leaves an
	// adapter ready for another).
	opened    map[int]adapter.Adapter
	i         int
	pinned    bool
	cancelled bool // Cancel was called during the running Execute
	closed    bool
	attempts  []error
	// sources are what answered for each attempt's candidate (candidate.Source).
	sources []string
}

// The host drives a selector as it drives one harness's session.
var _ adapter.Adapter = (*selector)(nil)

// harness is the harness of the current candidate: after a successful
// initialization, the one the session is pinned to.
func (s *selector) harness() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.i >= len(s.cands) {
		return ""
	}
	return s.cands[s.i].Harness
}

// current is the initialized adapter of the candidate in use: nil before
// an initialization succeeded.
func (s *selector) current() adapter.Adapter {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur
}

func (s *selector) Initialize(ctx context.Context) error {
	for {
		s.mu.Lock()
		i := s.i
		a := s.opened[i]
		s.mu.Unlock()
		if i >= len(s.cands) {
			return s.exhausted()
		}
		c := s.cands[i]
		var err error
		if a == nil {
			if a, err = s.open(c); err == nil && !s.keep(i, a) {
				_ = a.Close(context.WithoutCancel(ctx))
				return closedError(s.name)
			}
		}
		if err == nil {
			err = a.Initialize(ctx)
		}
		if err == nil {
			return s.use(a)
		}
		if !rejection.TryNext(err) {
			return err // the next explicit execute retries this candidate
		}
		s.reject(c, err)
	}
}

// keep records a new adapter for Close; false when the selector was
// closed meanwhile.
func (s *selector) keep(i int, a adapter.Adapter) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	if s.opened == nil {
		s.opened = map[int]adapter.Adapter{}
	}
	s.opened[i] = a
	return true
}

func closedError(name string) error {
	return agentproto.Errorf(agentproto.CodeContextClosed, "agent %q: the session was closed while it initialized", name)
}

// use makes a the current adapter, unless the selector was closed
// meanwhile (Close then closed a too).
func (s *selector) use(a adapter.Adapter) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return closedError(s.name)
	}
	s.cur = a
	return nil
}

// reject records a refused candidate and moves past it. A missing harness
// or missing authentication refuses every model of that harness, so the
// selector skips the harness's remaining candidates.
func (s *selector) reject(c candidate, err error) {
	r, _ := rejection.As(err)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.attempts = append(s.attempts, fmt.Errorf("%s: %w", c.label(), err))
	s.sources = append(s.sources, c.Source)
	s.i++
	if r.Reason == rejection.HarnessUnavailable || r.Reason == rejection.Authentication {
		for s.i < len(s.cands) && s.cands[s.i].Harness == c.Harness {
			s.i++
		}
	}
}

func (c candidate) label() string {
	if c.Model == "" {
		return c.Harness
	}
	return c.Harness + "/" + c.Model
}

// exhausted is the error when no candidate is left: with one attempt, that
// attempt's own error (its code is what the workflow catches); with
// several, all of them. The walk starts over at the next explicit execute.
func (s *selector) exhausted() error {
	s.mu.Lock()
	attempts, sources := s.attempts, s.sources
	s.attempts, s.sources, s.i = nil, nil, 0
	s.mu.Unlock()
	if len(attempts) == 1 {
		return rejection.Final(attempts[0])
	}
	code := agentproto.CodeModelUnavailable
	lines := make([]string, len(attempts))
	for i, a := range attempts {
		lines[i] = a.Error()
		if i == 0 {
			code = agentproto.CodeOf(a)
		} else if agentproto.CodeOf(a) != code {
			code = agentproto.CodeModelUnavailable
		}
	}
	return agentproto.Errorf(code, "agent %q: no harness could serve its models:\n  %s", s.name, strings.Join(lines, "\n  ")).
		WithDetails(map[string]any{"attempts": lines, "sources": sources})
}

func (s *selector) Execute(ctx context.Context, prompt string) (adapter.Result, error) {
	s.mu.Lock()
	s.cancelled = false
	s.mu.Unlock()
	for {
		s.mu.Lock()
		cur, i, pinned := s.cur, s.i, s.pinned
		s.mu.Unlock()
		if cur == nil {
			return adapter.Result{}, agentproto.Errorf(agentproto.CodeInitialization, "agent %q: execute before initialization", s.name)
		}
		res, err := cur.Execute(ctx, prompt)
		if pinned || err == nil || !rejection.TryNext(err) || i+1 >= len(s.cands) {
			s.mu.Lock()
			s.pinned = true
			s.mu.Unlock()
			return res, rejection.Final(err)
		}
		if err := s.moveOn(ctx, cur, err); err != nil {
			return adapter.Result{}, err
		}
	}
}

// moveOn closes the refused candidate's conversation and initializes the
// next candidate, which then gets the unchanged prompt. A Cancel that came
// meanwhile ends the execute instead: it must not be lost between two
// adapters.
func (s *selector) moveOn(ctx context.Context, cur adapter.Adapter, cause error) error {
	s.mu.Lock()
	c := s.cands[s.i]
	s.cur = nil
	delete(s.opened, s.i) // its conversation is closed: a retry opens a new one
	s.mu.Unlock()
	if cerr := cur.Close(ctx); cerr != nil {
		return agentproto.Errorf(agentproto.CodeExecution, "agent %q: closing the refused candidate %s failed, so no other is tried: %v (refused: %v)",
			s.name, c.label(), cerr, cause).Wrap(cause)
	}
	s.reject(c, cause)
	s.mu.Lock()
	next := ""
	if s.i < len(s.cands) {
		next = s.cands[s.i].Model
	}
	s.mu.Unlock()
	s.emit(adapter.NewEvent(eventapi.IDs{}, &eventapi.ModelUnavailable{Harness: c.Harness, Model: c.Model, Next: next, Error: eventError(cause)}))
	if err := s.Initialize(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	cancelled, cur := s.cancelled, s.cur
	s.mu.Unlock()
	if cancelled || ctx.Err() != nil {
		cur.Cancel()
		return agentproto.Errorf(agentproto.CodeCancelled, "execute of agent %q was cancelled", s.name)
	}
	return nil
}

// Cancel reaches the current candidate, and through the cancelled mark the
// one a fallback in progress is about to use.
func (s *selector) Cancel() {
	s.mu.Lock()
	s.cancelled = true
	cur := s.cur
	s.mu.Unlock()
	if cur != nil {
		cur.Cancel()
	}
}

func (s *selector) Close(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true
	opened := s.opened
	s.cur, s.opened = nil, nil
	s.mu.Unlock()
	var err error
	for _, a := range opened {
		if cerr := a.Close(ctx); cerr != nil && err == nil {
			err = cerr
		}
	}
	return err
}
