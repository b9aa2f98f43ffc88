package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/mcpdecl"
	"github.com/stratoscli/stratos/shared/proctest"
)

// faultyServer is the test binary as a stdio server started with the
// fake's fault flags, marked so that the test can find its process.
func faultyServer(t *testing.T, args string) (mcpdecl.Server, string) {
	t.Helper()
	if err := proctest.Available(); err != nil {
		t.Fatal(err)
	}
	s := stdioServer(t, "modern")
	mark := fmt.Sprintf("STRATOS_MCPCLIENT_TEST=%s-%d", t.Name(), time.Now().UnixNano())
	key, value, _ := strings.Cut(mark, "=")
	s.Env[key] = value
	s.Env["STRATOS_FAKEMCP_ARGS"] = args
	return s, mark
}

func requireGone(t *testing.T, mark string) {
	t.Helper()
	if left := proctest.WithEnv(mark); len(left) > 0 {
		t.Fatalf("the server is still running after Connect returned:\n%s", proctest.Describe(left))
	}
}

// A server that never answers initialize fails Connect after its connect
// timeout, not the five minutes of a request; the error names the server,
// the timeout and the field that raises it, and the server (which ignores
// the end of its stdin) is gone.
func TestConnectTimeoutNamesTheFieldThatRaisesIt(t *testing.T) {
	s, mark := faultyServer(t, "--hang-initialize")
	s.ConnectTimeout = 500 * time.Millisecond
	dir := t.TempDir()
	_, err := Connect(context.Background(), s, Options{WorkflowDir: dir})
	var te *TimeoutError
	if !errors.As(err, &te) || te.Timeout != s.ConnectTimeout || te.Stage != StageHandshake {
		t.Fatalf("err = %v, want a *TimeoutError after %v", err, s.ConnectTimeout)
	}
	for _, want := range []string{`MCP server "fake"`, "within 500ms", "mcp.servers.fake.connectTimeout in " + filepath.Join(dir, "workflow.yaml"), "connectTimeout: 1s"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	requireGone(t, mark)
}

// Cancelling the context (Ctrl-C) ends a connect under way and kills the
// server, which ignores SIGTERM and the end of its stdin.
func TestConnectInterruptedLeavesNoServer(t *testing.T) {
	s, mark := faultyServer(t, "--hang-initialize")
	s.ConnectTimeout = time.Hour
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for len(proctest.WithEnv(mark)) == 0 {
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
	}()
	_, err := Connect(ctx, s, Options{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	requireGone(t, mark)
}

// A server that exits at start is reported with its exit status and the
// last lines of its stderr, bounded.
func TestServerExitingAtStartShowsStatusAndStderr(t *testing.T) {
	s, _ := faultyServer(t, "--exit-at-start 3 --stderr-lines 30")
	var passed strings.Builder
	_, err := Connect(context.Background(), s, Options{Stderr: &passed})
	var ce *ConnectError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want a *ConnectError", err)
	}
	if ce.Status != "exited with status 3" {
		t.Errorf("status %q", ce.Status)
	}
	if len(ce.Stderr) != tailLines || ce.Stderr[0] != "stratos-fakemcp: starting, step 22 of 30" || ce.Stderr[tailLines-1] != "stratos-fakemcp: cannot start: exiting with status 3" {
		t.Errorf("stderr lines %q", ce.Stderr)
	}
	msg := err.Error()
	if !strings.Contains(msg, `MCP server "fake" exited with status 3 before it was ready`) || !strings.Contains(msg, "\n    stratos-fakemcp: cannot start: exiting with status 3") || strings.Contains(msg, "step 21 of 30") {
		t.Errorf("message %q", msg)
	}
	if !strings.Contains(passed.String(), "step 1 of 30") {
		t.Errorf("the server's stderr was not passed on: %q", passed.String())
	}
}

func TestStderrTailKeepsTheLastLinesBounded(t *testing.T) {
	var tail stderrTail
	for i := range 15 {
		fmt.Fprintf(&tail, "line %d\n", i)
	}
	tail.Write([]byte("a\x1b[31mred\r\n" + strings.Repeat("x", 2*tailLineMax) + "\nunfin"))
	tail.Write([]byte("ished\tline"))
	got := tail.lines()
	want := []string{"line 8", "line 9", "line 10", "line 11", "line 12", "line 13", "line 14", "a?[31mred", strings.Repeat("x", tailLineMax) + "…", "unfinished line"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("lines:\n%q\nwant\n%q", got, want)
	}
}
