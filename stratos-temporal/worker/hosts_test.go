package worker

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/jsonrpc"
)

// envFakeHost makes the test binary a stand-in for stratos-agent serve
// that notes its start in the directory the variable names and answers
// initialize.
const envFakeHost = "STRATOS_TEST_FAKE_HOST"

func TestMain(m *testing.M) {
	if dir := os.Getenv(envFakeHost); dir != "" {
		fakeHost(dir)
		return
	}
	os.Exit(m.Run())
}

func fakeHost(dir string) {
	pid := strconv.Itoa(os.Getpid())
	_ = os.WriteFile(filepath.Join(dir, pid+".started"), nil, 0o600)
	conn := jsonrpc.New(os.Stdin, os.Stdout, func(_ context.Context, method string, params json.RawMessage) (any, error) {
		if method == agentproto.MethodInitialize {
			_ = os.WriteFile(filepath.Join(dir, pid+".initialized"), params, 0o600)
		}
		return struct{}{}, nil
	}, nil)
	_ = conn.Serve(context.Background())
}

// waitFor waits until the directory holds n files ending in suffix.
func waitFor(t *testing.T, dir, suffix string, n int) []string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		files, _ := filepath.Glob(filepath.Join(dir, "*"+suffix))
		if len(files) >= n {
			return files
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d %s files in %s, want %d", len(files), suffix, dir, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A worker taking agents starts a host before any run needs one; a run's
// first execute takes that one (initialized for the run) and the next
// spare starts; stopping the worker stops the spare too.
func TestARunTakesAHostStartedBeforeIt(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	notes := t.TempDir()
	t.Setenv(envFakeHost, notes)
	hs := &hosts{bin: self, dir: t.TempDir(), worker: "w1", stderr: io.Discard, byRun: map[string]*host{}}
	hs.prepare()
	spare := waitFor(t, notes, ".started", 1)[0]
	h, err := hs.get("run-1", agentproto.InitializeParams{ExecutionID: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if got := filepath.Join(notes, strconv.Itoa(h.proc.Pid())+".started"); got != spare {
		t.Errorf("the run's host is %s, want the spare started before it, %s", got, spare)
	}
	if _, err := os.Stat(filepath.Join(notes, strconv.Itoa(h.proc.Pid())+".initialized")); err != nil {
		t.Errorf("the run's host was not initialized: %v", err)
	}
	waitFor(t, notes, ".started", 2)
	if again, err := hs.get("run-1", agentproto.InitializeParams{}); err != nil || again != h {
		t.Errorf("the run's second execute got host %p (%v), want its first's, %p", again, err, h)
	}
	hs.mu.Lock()
	next := hs.spare
	hs.mu.Unlock()
	hs.closeAll()
	<-next.spawned
	stopped := make(chan struct{})
	go func() { _ = next.proc.Wait(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Errorf("the spare host still runs after the worker stopped")
	}
	if files := waitFor(t, notes, ".initialized", 1); len(files) != 1 {
		t.Errorf("initialized hosts: %v, want the run's alone", files)
	}
}
