package host

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// fakeAdapter fails Initialize or the first Execute as told and records
// what happened to it.
type fakeAdapter struct {
	name       string
	initErr    error
	execErr    error
	closed     bool
	log        *[]string
	executions int
}

func (f *fakeAdapter) Initialize(context.Context) error {
	*f.log = append(*f.log, "init "+f.name)
	return f.initErr
}

func (f *fakeAdapter) Execute(_ context.Context, prompt string) (adapter.Result, error) {
	f.executions++
	*f.log = append(*f.log, "execute "+f.name+" "+prompt)
	if f.execErr != nil && f.executions == 1 {
		return adapter.Result{}, f.execErr
	}
	return adapter.Result{Text: f.name}, nil
}

func (f *fakeAdapter) Cancel() {}

func (f *fakeAdapter) Close(context.Context) error {
	f.closed = true
	*f.log = append(*f.log, "close "+f.name)
	return nil
}

func selectorOver(log *[]string, adapters ...*fakeAdapter) *selector {
	var cands []candidate
	byHarness := map[string]*fakeAdapter{}
	for _, a := range adapters {
		a.log = log
		cands = append(cands, candidate{Harness: a.name, Model: "m"})
		byHarness[a.name] = a
	}
	return &selector{name: "agent", cands: cands, open: func(c candidate) (adapter.Adapter, error) {
		a := byHarness[c.Harness]
		if a == nil {
			return nil, agentproto.Errorf(agentproto.CodeHarnessUnavailable, "no %s", c.Harness)
		}
		return a, nil
	}}
}

func unavailable(selectable bool) error {
	return agentproto.Errorf(agentproto.CodeModelUnavailable, "not found").WithDetails(map[string]any{"selectable": selectable})
}

func TestSelectorFallsBackOnMissingHarnessAndAuth(t *testing.T) {
	var log []string
	s := selectorOver(&log,
		&fakeAdapter{name: "a", initErr: agentproto.Errorf(agentproto.CodeHarnessUnavailable, "not installed")},
		&fakeAdapter{name: "b", initErr: agentproto.Errorf(agentproto.CodeAuthentication, "no credentials")},
		&fakeAdapter{name: "c"})
	if err := s.Initialize(context.Background()); err != nil {
		t.Fatal(err)
	}
	res, err := s.Execute(context.Background(), "p")
	if err != nil || res.Text != "c" {
		t.Fatalf("Execute = %v, %v", res, err)
	}
}

func TestSelectorAdvancesOnEarlyModelRejectionWithTheSamePrompt(t *testing.T) {
	var log []string
	first := &fakeAdapter{name: "a", execErr: unavailable(true)}
	s := selectorOver(&log, first, &fakeAdapter{name: "b"})
	if err := s.Initialize(context.Background()); err != nil {
		t.Fatal(err)
	}
	res, err := s.Execute(context.Background(), "the prompt")
	if err != nil || res.Text != "b" {
		t.Fatalf("Execute = %v, %v", res, err)
	}
	want := "init a,execute a the prompt,close a,init b,execute b the prompt"
	if got := strings.Join(log, ","); got != want {
		t.Fatalf("order %q, want %q", got, want)
	}
	// Pinned: later executes stay on b even if it would fail now.
	if res, err := s.Execute(context.Background(), "next"); err != nil || res.Text != "b" {
		t.Fatalf("second Execute = %v, %v", res, err)
	}
}

func TestSelectorPropagatesOtherFailures(t *testing.T) {
	for _, err := range []error{
		agentproto.Errorf(agentproto.CodeExecution, "rate limited").WithDetails(map[string]any{"status": 429}),
		unavailable(false),
	} {
		var log []string
		s := selectorOver(&log, &fakeAdapter{name: "a", execErr: err}, &fakeAdapter{name: "b"})
		if ierr := s.Initialize(context.Background()); ierr != nil {
			t.Fatal(ierr)
		}
		if _, got := s.Execute(context.Background(), "p"); !errors.Is(got, err) {
			t.Fatalf("Execute error = %v, want %v", got, err)
		}
		if strings.Contains(strings.Join(log, ","), "init b") {
			t.Fatalf("fell back on %v: %v", err, log)
		}
	}
	var log []string
	s := selectorOver(&log, &fakeAdapter{name: "a", initErr: agentproto.Errorf(agentproto.CodeInitialization, "crashed")}, &fakeAdapter{name: "b"})
	if err := s.Initialize(context.Background()); err == nil || strings.Contains(strings.Join(log, ","), "init b") {
		t.Fatalf("an initialization crash must not fall back: %v %v", err, log)
	}
}

func TestSelectorReportsEveryAttemptWhenNoneWorks(t *testing.T) {
	var log []string
	s := selectorOver(&log, &fakeAdapter{name: "a", initErr: agentproto.Errorf(agentproto.CodeAuthentication, "no key")})
	s.cands = append(s.cands, candidate{Harness: "codex", Model: "m"})
	err := s.Initialize(context.Background())
	var e *agentproto.Error
	if !errors.As(err, &e) || e.Code != agentproto.CodeModelUnavailable || !strings.Contains(e.Message, "a/m: no key") || !strings.Contains(e.Message, "codex/m: no codex") {
		t.Fatalf("error = %v", err)
	}
}
