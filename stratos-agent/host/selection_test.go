package host

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
)

// fakeAdapter fails Initialize or the first Execute as told and records
// what happened to it.
type fakeAdapter struct {
	name    string
	initErr error
	execErr error
	// execute, when set, replaces the scripted Execute.
	execute func(ctx context.Context) (adapter.Result, error)

	mu         sync.Mutex
	log        *[]string
	executions int
	cancels    int
}

func (f *fakeAdapter) record(s string) {
	f.mu.Lock()
	*f.log = append(*f.log, s)
	f.mu.Unlock()
}

func (f *fakeAdapter) Initialize(context.Context) error {
	f.record("init " + f.name)
	return f.initErr
}

func (f *fakeAdapter) Execute(ctx context.Context, prompt string) (adapter.Result, error) {
	f.mu.Lock()
	f.executions++
	n := f.executions
	f.mu.Unlock()
	f.record("execute " + f.name + " " + prompt)
	if f.execute != nil {
		return f.execute(ctx)
	}
	if f.execErr != nil && n == 1 {
		return adapter.Result{}, f.execErr
	}
	return adapter.Result{Text: f.name}, nil
}

func (f *fakeAdapter) Cancel() {
	f.mu.Lock()
	f.cancels++
	f.mu.Unlock()
}

func (f *fakeAdapter) Close(context.Context) error {
	f.record("close " + f.name)
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
	return &selector{name: "agent", cands: cands, emit: func(adapter.Event) {}, open: func(c candidate) (adapter.Adapter, error) {
		a := byHarness[c.Harness]
		if a == nil {
			return nil, rejection.New(rejection.HarnessUnavailable, "no %s", c.Harness)
		}
		return a, nil
	}}
}

func TestSelectorFallsBackOnMissingHarnessAndAuth(t *testing.T) {
	var log []string
	s := selectorOver(&log,
		&fakeAdapter{name: "a", initErr: rejection.New(rejection.HarnessUnavailable, "not installed")},
		&fakeAdapter{name: "b", initErr: rejection.New(rejection.Authentication, "no credentials")},
		&fakeAdapter{name: "c"})
	if err := s.Initialize(context.Background()); err != nil {
		t.Fatal(err)
	}
	res, err := s.Execute(context.Background(), "p")
	if err != nil || res.Text != "c" {
		t.Fatalf("Execute = %v, %v", res, err)
	}
}

func TestSelectorSkipsTheOtherModelsOfAHarnessWithoutAuthentication(t *testing.T) {
	var log []string
	a := &fakeAdapter{name: "a", initErr: rejection.New(rejection.Authentication, "no key")}
	b := &fakeAdapter{name: "b"}
	s := selectorOver(&log, a, b)
	s.cands = []candidate{{Harness: "a", Model: "m1"}, {Harness: "a", Model: "m2"}, {Harness: "b", Model: "m1"}}
	if err := s.Initialize(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(log, ","); got != "init a,init b" {
		t.Fatalf("order %q", got)
	}
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(log, ","), "close a") {
		t.Fatalf("the refused adapter was not closed with the session: %v", log)
	}
}

func TestSelectorAdvancesOnEarlyModelRejectionWithTheSamePrompt(t *testing.T) {
	var log []string
	first := &fakeAdapter{name: "a", execErr: rejection.New(rejection.ModelUnavailable, "not found")}
	s := selectorOver(&log, first, &fakeAdapter{name: "b"})
	var events []adapter.Event
	s.emit = func(e adapter.Event) { events = append(events, e) }
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
	if len(events) != 1 || events[0].Details.(*eventapi.ModelUnavailable).Harness != "a" {
		t.Fatalf("events %+v", events)
	}
	// Pinned: later executes stay on b even if it would fail now.
	if res, err := s.Execute(context.Background(), "next"); err != nil || res.Text != "b" {
		t.Fatalf("second Execute = %v, %v", res, err)
	}
}

func TestSelectorPropagatesOtherFailures(t *testing.T) {
	for name, err := range map[string]error{
		"rate limit": agentproto.Errorf(agentproto.CodeExecution, "rate limited").WithDetails(map[string]any{"status": 429}),
		"after work": rejection.New(rejection.ModelUnavailable, "not found").Final(),
		"plain code": agentproto.Errorf(agentproto.CodeModelUnavailable, "not a rejection"),
	} {
		t.Run(name, func(t *testing.T) {
			var log []string
			s := selectorOver(&log, &fakeAdapter{name: "a", execErr: err}, &fakeAdapter{name: "b"})
			if ierr := s.Initialize(context.Background()); ierr != nil {
				t.Fatal(ierr)
			}
			got := func() error { _, e := s.Execute(context.Background(), "p"); return e }()
			if agentproto.CodeOf(got) != agentproto.CodeOf(err) || got.Error() != err.Error() {
				t.Fatalf("Execute error = %v, want %v", got, err)
			}
			if rejection.TryNext(got) {
				t.Fatalf("the returned error still lets a caller go on")
			}
			if strings.Contains(strings.Join(log, ","), "init b") {
				t.Fatalf("fell back on %v: %v", err, log)
			}
		})
	}
}

func TestSelectorRetriesTheSameCandidateAfterAnInitializationFailure(t *testing.T) {
	var log []string
	a := &fakeAdapter{name: "a", initErr: agentproto.Errorf(agentproto.CodeInitialization, "crashed")}
	s := selectorOver(&log, a, &fakeAdapter{name: "b"})
	if err := s.Initialize(context.Background()); agentproto.CodeOf(err) != agentproto.CodeInitialization {
		t.Fatalf("an initialization crash must be returned as is: %v", err)
	}
	a.initErr = nil
	if err := s.Initialize(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(log, ","); got != "init a,init a" {
		t.Fatalf("order %q: the retry must reuse the same adapter", got)
	}
}

func TestSelectorReportsEveryAttemptWhenNoneWorks(t *testing.T) {
	var log []string
	s := selectorOver(&log, &fakeAdapter{name: "a", initErr: rejection.New(rejection.Authentication, "no key")})
	s.cands = append(s.cands, candidate{Harness: "codex", Model: "m"})
	err := s.Initialize(context.Background())
	var e *agentproto.Error
	if !errors.As(err, &e) || e.Code != agentproto.CodeModelUnavailable || !strings.Contains(e.Message, "a/m: no key") || !strings.Contains(e.Message, "codex/m: no codex") {
		t.Fatalf("error = %v", err)
	}
}

func TestSelectorWithOneCandidateKeepsItsError(t *testing.T) {
	var log []string
	s := selectorOver(&log, &fakeAdapter{name: "a", initErr: rejection.New(rejection.Authentication, "no key")})
	err := s.Initialize(context.Background())
	if agentproto.CodeOf(err) != agentproto.CodeAuthentication || !strings.Contains(err.Error(), "no key") {
		t.Fatalf("error = %v", err)
	}
}

// TestCancelDuringAFallbackReachesTheNextCandidate runs Cancel concurrently
// with the move from one candidate to the next (run it with -race: Cancel
// and Execute both touch the current candidate).
func TestCancelDuringAFallbackReachesTheNextCandidate(t *testing.T) {
	var log []string
	refused := make(chan struct{})
	proceed := make(chan struct{})
	first := &fakeAdapter{name: "a", execute: func(context.Context) (adapter.Result, error) {
		close(refused)
		<-proceed
		return adapter.Result{}, rejection.New(rejection.ModelUnavailable, "not found")
	}}
	second := &fakeAdapter{name: "b", execute: func(ctx context.Context) (adapter.Result, error) {
		return adapter.Result{Text: "b ran although cancelled"}, nil
	}}
	s := selectorOver(&log, first, second)
	if err := s.Initialize(context.Background()); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := s.Execute(context.Background(), "p"); done <- err }()
	<-refused
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); s.Cancel() }()
	wg.Wait()
	close(proceed)
	if err := <-done; agentproto.CodeOf(err) != agentproto.CodeCancelled {
		t.Fatalf("execute error %v, want cancelled", err)
	}
	if strings.Contains(strings.Join(log, ","), "execute b") {
		t.Fatalf("the next candidate got the prompt after a cancel: %v", log)
	}
	second.mu.Lock()
	defer second.mu.Unlock()
	if second.cancels == 0 {
		t.Fatalf("the cancel did not reach the next candidate")
	}
}

// TestCancelRacesExecute hammers Cancel while Execute swaps candidates.
func TestCancelRacesExecute(t *testing.T) {
	for range 20 {
		var log []string
		s := selectorOver(&log, &fakeAdapter{name: "a", execErr: rejection.New(rejection.ModelUnavailable, "x")}, &fakeAdapter{name: "b"})
		if err := s.Initialize(context.Background()); err != nil {
			t.Fatal(err)
		}
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
					s.Cancel()
				}
			}
		}()
		_, _ = s.Execute(context.Background(), "p")
		close(stop)
		wg.Wait()
		_ = s.Close(context.Background())
	}
}
