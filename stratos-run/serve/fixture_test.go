package serve

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stratoscli/stratos/stratos-run/records"
	"github.com/stratoscli/stratos/stratos-run/runs"
)

var t0 = time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)

// readToken is the fixture server's read token; ownRequest presents it as
// the page's own requests (and programs) do.
const readToken = "read-token"

// ownRequest is a GET the server's own page would make.
func ownRequest(ctx context.Context, url string) *http.Request {
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+readToken)
	return req
}

// fixture is a runs directory and a server over it.
type fixture struct {
	t     testing.TB
	store *runs.Store
	srv   *httptest.Server
	token string
}

func newFixture(t testing.TB, loopback bool) *fixture {
	t.Helper()
	store := &runs.Store{Dir: filepath.Join(t.TempDir(), "runs")}
	s, err := New(Options{Store: store, Loopback: loopback, Token: "secret-token", ReadToken: readToken, Port: 8737, Poll: 10 * time.Millisecond, StopWait: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	return &fixture{t: t, store: store, srv: srv, token: "secret-token"}
}

// begin records a running run whose process is pid.
func (f *fixture) begin(id, workflow string, pid int, start time.Time) *records.Run {
	f.t.Helper()
	r, err := records.Begin(f.store.Dir, records.Invocation{ExecutionID: id, Workflow: workflow, PID: pid, StartedAt: start, Input: json.RawMessage(`{}`)})
	if err != nil {
		f.t.Fatal(err)
	}
	return r
}

// finished records a run that succeeded with output, with events.
func (f *fixture) finished(id, workflow string, start time.Time, events ...string) {
	f.t.Helper()
	r := f.begin(id, workflow, os.Getpid(), start)
	f.appendEvents(id, events...)
	if err := r.Finish(records.Final{Status: records.StatusSucceeded, EndedAt: start.Add(2 * time.Second), Output: json.RawMessage(`{"ok":true}`)}); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) appendEvents(id string, lines ...string) {
	f.t.Helper()
	fh, err := os.OpenFile(filepath.Join(f.store.Dir, id, runs.EventsFile), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		f.t.Fatal(err)
	}
	defer fh.Close()
	for _, l := range lines {
		if _, err := fh.WriteString(l + "\n"); err != nil {
			f.t.Fatal(err)
		}
	}
}

// sleeper starts a process that stands in for a run's stratos run process,
// so that a Stop signals it and not the test.
func sleeper(t testing.TB) *exec.Cmd {
	t.Helper()
	c := exec.Command("sleep", "300")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = c.Wait(); close(done) }()
	t.Cleanup(func() { _ = c.Process.Kill(); <-done })
	return c
}
