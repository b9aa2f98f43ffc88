package claudecode

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// sleepArg is a duration no other process uses, so the test can find every
// process running it. (Claude Code refuses a plain long `sleep`, so the
// long commands are `timeout <arg> tail -f /dev/null`.)
func sleepArg() string { return fmt.Sprintf("%d.%03d", 3000+rand.IntN(5000), rand.IntN(1000)) }

// processesWith returns the pids whose command line contains s.
func processesWith(t *testing.T, s string) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc: cannot look for leftover processes")
	}
	var pids []string
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(strings.ReplaceAll(string(b), "\x00", " "), s) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

// waitFor polls cond: the CLI's progress is asynchronous.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitGone polls until no process runs s; the kernel reaps asynchronously.
func waitGone(t *testing.T, s string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		pids := processesWith(t, s)
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes still running %q: %v", s, pids)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestCancelDuringALongToolCallThenContinue(t *testing.T) {
	arg := sleepArg()
	b := newBed(t, `{"turns":[
	  {"match":{"marker":"[long]"},"reply":[{"toolUse":{"name":"Bash","input":{"command":"timeout `+arg+` tail -f /dev/null","description":"wait"}}}]},
	  {"match":{"marker":"[next]"},"reply":[{"text":"after cancel"}]}
	]}`)
	a := b.adapter(adapter.Spec{}, nil)
	done := make(chan error, 1)
	go func() { _, err := a.Execute(ctx(t), "[long] wait"); done <- err }()
	waitFor(t, "the command to run", func() bool { return len(processesWith(t, "timeout "+arg)) > 0 })
	a.Cancel()
	wantCode(t, <-done, agentproto.CodeCancelled)
	waitGone(t, "timeout "+arg)
	if got := mustExecute(t, a, "[next] go on").Text; got != "after cancel" {
		t.Errorf("execute after cancel: %q", got)
	}
}

func TestCancelAndCloseStopBackgroundTasks(t *testing.T) {
	arg := sleepArg()
	b := newBed(t, `{"turns":[
	  {"match":{"marker":"[bg]"},"reply":[{"toolUse":{"name":"Bash","input":{"command":"timeout `+arg+` tail -f /dev/null","description":"bg","run_in_background":true}}}]},
	  {"match":{"marker":"[bg]"},"reply":[{"text":"started it"}]}
	]}`)
	a := b.adapter(adapter.Spec{}, nil)
	mustExecute(t, a, "[bg] start")
	if len(processesWith(t, "timeout "+arg)) == 0 {
		t.Fatalf("the background task is not running after its turn")
	}
	if len(b.eventsOf("background.started")) == 0 {
		t.Errorf("no background.started event")
	}
	a.Cancel() // idle: only background work is live
	waitGone(t, "timeout "+arg)
	waitFor(t, "background.completed", func() bool { return len(b.eventsOf("background.completed")) > 0 })
	if err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestCloseStopsBackgroundTasksAndTheCLI(t *testing.T) {
	arg := sleepArg()
	b := newBed(t, `{"turns":[
	  {"match":{"marker":"[bg]"},"reply":[{"toolUse":{"name":"Bash","input":{"command":"timeout `+arg+` tail -f /dev/null","description":"bg","run_in_background":true}}}]},
	  {"match":{"marker":"[bg]"},"reply":[{"text":"started it"}]}
	]}`)
	a := b.adapter(adapter.Spec{}, nil)
	mustExecute(t, a, "[bg] start")
	pid := a.(*session).proc.pid()
	if err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	waitGone(t, "timeout "+arg)
	if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err == nil {
		t.Errorf("claude (pid %d) survived Close", pid)
	}
}
