package adaptertest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/fakemodel"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// callBound bounds one adapter call of a test: a real CLI on a loaded
// machine is slow, but a hung one must not hold the test run forever.
const callBound = 3 * time.Minute

// Bed is the wiring every test of an adapter that runs a real CLI shares:
// the fake model server on 127.0.0.1, a private directory (a HOME and a
// working directory) the CLI cannot leave, the CLI's environment and the
// events the adapter emitted. An adapter's tests add only what differs:
// the variables pointing its CLI at the fake and its factory's options.
type Bed struct {
	Events

	// T is the test the bed belongs to.
	T *testing.T
	// Server is the fake model; it closes at the end of the test.
	Server *fakemodel.Server
	// Dir is the test's private directory; Home and Work are in it.
	Dir, Home, Work string
	// Marker is a KEY=VALUE unique to the test. It is in Env, so every
	// process the CLI starts inherits it and can be found by it.
	Marker string
	// Env is the CLI's environment: PATH, HOME and Marker, and whatever
	// the adapter's tests append.
	Env []string
}

// NewBed starts the fake with script and makes the private directory.
func NewBed(t *testing.T, script fakemodel.Script) *Bed {
	t.Helper()
	srv, err := fakemodel.Start(script, fakemodel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	dir := t.TempDir()
	b := &Bed{T: t, Server: srv, Dir: dir, Home: filepath.Join(dir, "home"), Work: filepath.Join(dir, "work"),
		Marker: "STRATOS_TEST_BED=" + dir}
	for _, d := range []string{b.Home, b.Work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	b.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + b.Home, b.Marker}
	// Registered first, so it runs last: after the adapters' Close, whose
	// events count too.
	t.Cleanup(func() { b.Conform(t, "the adapter under test") })
	return b
}

// ParseScript is the fake's script in its JSON form; a malformed one
// fails the test.
func ParseScript(t *testing.T, raw string) fakemodel.Script {
	t.Helper()
	s, err := fakemodel.ParseScript([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Environ returns Env as it is when the adapter asks (for an adapter's
// Options.Environ), so a test may still change Env after making it.
func (b *Bed) Environ() []string { return b.Env }

// Context bounds one call of the test.
func (b *Bed) Context() context.Context { return Context(b.T) }

// Open makes an adapter with newAdapter and initializes it; Close runs at
// the end of the test. Nil hooks allow every tool call.
func (b *Bed) Open(newAdapter adapter.Factory, spec adapter.Spec, hooks adapter.Hooks) adapter.Adapter {
	b.T.Helper()
	a, err := b.Make(newAdapter, spec, hooks)
	if err != nil {
		b.T.Fatal(err)
	}
	if err := a.Initialize(b.Context()); err != nil {
		b.T.Fatalf("initialize: %v", err)
	}
	return a
}

// Make makes an adapter with newAdapter, recording its events; Close
// runs at the end of the test and must succeed (a session closes again
// without error). Nil hooks allow every tool call.
func (b *Bed) Make(newAdapter adapter.Factory, spec adapter.Spec, hooks adapter.Hooks) (adapter.Adapter, error) {
	if hooks == nil {
		hooks = &Hooks{}
	}
	a, err := newAdapter(spec, b.Record, hooks)
	if err != nil {
		return nil, err
	}
	b.T.Cleanup(func() {
		if err := a.Close(context.Background()); err != nil {
			b.T.Errorf("close: %v", err)
		}
	})
	return a, nil
}

// RequestsWith are the logged model requests whose prompt contains marker.
func (b *Bed) RequestsWith(marker string) []fakemodel.Entry {
	var out []fakemodel.Entry
	for _, e := range b.Server.Log().Entries() {
		if strings.Contains(e.Prompt, marker) {
			out = append(out, e)
		}
	}
	return out
}

// Events records the events an adapter emits.
type Events struct {
	mu     sync.Mutex
	events []adapter.Event
}

// Record is an adapter's onEvent.
func (r *Events) Record(e adapter.Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
}

// Reporter is where Conform reports: a *testing.T.
type Reporter interface {
	Helper()
	Errorf(format string, args ...any)
}

// Conform reports every recorded event that is not a line of the event
// vocabulary (shared/contract/eventapi) as the agent host records it: each
// is written as a line and must pass eventapi.Check, so an event without
// details, of a kind the vocabulary does not know, or with a field it does
// not define fails, showing the line; who names the emitter.
func (r *Events) Conform(t Reporter, who string) {
	t.Helper()
	r.mu.Lock()
	events := slices.Clone(r.events)
	r.mu.Unlock()
	for _, e := range events {
		line := eventapi.Event{V: eventapi.Version, Type: e.Type(), Timestamp: e.Time.UTC().Format(time.RFC3339Nano),
			ExecutionID: "conformance", AgentID: "conformance/agent-1", IDs: e.IDs, Reconstructed: e.Reconstructed, Details: e.Details}
		b, err := json.Marshal(line)
		if err == nil {
			err = eventapi.Check(b)
		}
		if err != nil {
			t.Errorf("%s emitted an event outside the event vocabulary: %s: %v", who, b, err)
		}
	}
}

// EventsOf are the recorded events of type typ, in order.
func (r *Events) EventsOf(typ string) []adapter.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []adapter.Event
	for _, e := range r.events {
		if e.Type() == typ {
			out = append(out, e)
		}
	}
	return out
}

// Context bounds one call of t.
func Context(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), callBound)
	t.Cleanup(cancel)
	return c
}

// CLI is the real CLI under test, the path in the variable env (which
// scripts/prepare-test-cache sets); without it the test fails saying
// what to install, never skips.
func CLI(t *testing.T, env, pkg string) string {
	t.Helper()
	bin := os.Getenv(env)
	if bin == "" {
		t.Fatalf("%s is not set: these tests run the real CLI; run `eval \"$(scripts/prepare-test-cache)\"`, which installs the pinned %s and sets it (scripts/test does too)", env, pkg)
	}
	return bin
}

// TraceLog logs at trace level into t's output when the variable env is
// set (every message between the adapter and its CLI), else nowhere.
func TraceLog(t *testing.T, env string) hclog.Logger {
	if os.Getenv(env) == "" {
		return hclog.NewNullLogger()
	}
	return hclog.New(&hclog.LoggerOptions{Level: hclog.Trace, Output: testWriter{t}})
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(b []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(b), "\n"))
	return len(b), nil
}
