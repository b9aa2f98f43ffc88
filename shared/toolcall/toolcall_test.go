package toolcall_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/boundedread"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/contract/worktreeapi"
	"github.com/stratoscli/stratos/shared/sibling"
	"github.com/stratoscli/stratos/shared/toolcall"
	"github.com/stratoscli/stratos/shared/wirelog"
)

func TestRunSendsTheInputAndDecodesTheAnswer(t *testing.T) {
	var got answer
	err := toolcall.Run(context.Background(), toolcall.Call{Tool: fake, Args: []string{"echo", "--json"}, Input: map[string]string{"name": "Ada"}}, &got)
	var in bytes.Buffer
	if err != nil || !got.Valid || json.Compact(&in, got.Got) != nil || in.String() != `{"name":"Ada"}` {
		t.Fatalf("answer %+v (%s), err %v", got, got.Got, err)
	}
}

func TestTheCalleesErrorPassesThrough(t *testing.T) {
	err := toolcall.Run(context.Background(), toolcall.Call{Tool: fake, Args: []string{"fail", "--json"}}, &answer{})
	var ce *clierr.Error
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v (%T), want a *clierr.Error", err, err)
	}
	if ce.Code != worktreeapi.CodePathConflict || ce.Message != "the path is taken" || ce.Exit != clierr.ExitUsage || ce.Details["path"] != "/taken" {
		t.Errorf("err = %+v, want the fake's own path_conflict, its message, details and exit 2", ce)
	}
}

// A tool that answers also when it exits 1 (validate-config) is read as
// answering when the call says so, and as failing when it does not; its
// error envelope is its error either way.
func TestAnswersOnFailure(t *testing.T) {
	call := toolcall.Call{Tool: fake, Args: []string{"problems", "--json"}, AnswersOnFailure: true}
	var got answer
	if err := toolcall.Run(context.Background(), call, &got); err != nil || got.Valid || len(got.Problems) != 1 {
		t.Fatalf("answer %+v, err %v; want the problems", got, err)
	}
	call.AnswersOnFailure = false
	if err := toolcall.Run(context.Background(), call, &got); clierr.As(err).Code != errcode.CodeToolFailed {
		t.Errorf("without AnswersOnFailure: %v, want tool_failed", err)
	}
	// An error envelope with exit 1 is the tool's error, not an empty answer.
	broken := toolcall.Call{Tool: fake, Args: []string{"broken", "--json"}, AnswersOnFailure: true}
	if err := toolcall.Run(context.Background(), broken, &answer{}); clierr.As(err).Code != errcode.CodeInternal || err.Error() != "the schema did not compile" {
		t.Errorf("an error with exit 1: %v, want the tool's own", err)
	}
}

// A failure without an error envelope names the tool and its status and
// quotes the end of its stderr, which also reached the caller's stderr.
func TestFailureWithoutAnEnvelopeQuotesStderr(t *testing.T) {
	var stderr bytes.Buffer
	err := toolcall.Run(context.Background(), toolcall.Call{Tool: fake, Args: []string{"crash"}, Stderr: &stderr}, nil)
	ce := clierr.As(err)
	if ce.Code != errcode.CodeToolFailed || !strings.Contains(ce.Message, fake+" crash (") ||
		!strings.Contains(ce.Message, "exited with status 3") || !strings.Contains(ce.Message, "its stderr ends: panic: the fake broke") {
		t.Errorf("err = %+v", ce)
	}
	if stderr.String() != "panic: the fake broke\n" {
		t.Errorf("the caller's stderr got %q", stderr.String())
	}
}

func TestAToolNotFoundIsNamed(t *testing.T) {
	err := toolcall.Run(context.Background(), toolcall.Call{Tool: "stratos-nowhere", Args: []string{"x", "--json"}}, nil)
	if ce := clierr.As(err); ce.Code != errcode.CodeToolNotFound || !strings.Contains(ce.Message, "stratos-nowhere") {
		t.Errorf("err = %v", err)
	}
}

func TestAToolThatCannotStartIsNamed(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "stratos-garbage"), []byte("not a program\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(sibling.EnvBinDir, dir)
	err := toolcall.Run(context.Background(), toolcall.Call{Tool: "stratos-garbage", Args: []string{"x", "--json"}}, nil)
	if ce := clierr.As(err); ce.Code != errcode.CodeToolFailed || !strings.Contains(ce.Message, "start stratos-garbage ("+dir) || ce.Details["path"] != filepath.Join(dir, "stratos-garbage") {
		t.Errorf("err = %v (%v)", err, ce.Details)
	}
}

// A tool printing more than the limit is stopped (the fake prints until
// it is) and the error names it and the limit.
func TestOversizeOutputStopsTheTool(t *testing.T) {
	err := toolcall.Run(context.Background(), toolcall.Call{Tool: fake, Args: []string{"flood", "--json"}, MaxOutput: 1 << 20}, &answer{})
	var tooLarge *boundedread.TooLargeError
	if ce := clierr.As(err); ce.Code != errcode.CodeToolFailed || !errors.As(err, &tooLarge) || tooLarge.Limit != 1<<20 ||
		!strings.Contains(ce.Message, fake+" flood printed more than the limit of 1 MiB") {
		t.Errorf("err = %v", err)
	}
}

func TestOversizeLineStopsTheTool(t *testing.T) {
	var lines int
	err := toolcall.Lines(context.Background(), toolcall.Call{Tool: fake, Args: []string{"flood", "--json"}, MaxOutput: 64 << 10}, func([]byte) { lines++ })
	var tooLarge *boundedread.TooLargeError
	if !errors.As(err, &tooLarge) || lines != 0 || !strings.Contains(err.Error(), fake+" flood printed more than the limit of 64 KiB") {
		t.Errorf("err = %v after %d lines", err, lines)
	}
}

func TestLinesHandsEachLine(t *testing.T) {
	var got []string
	err := toolcall.Lines(context.Background(), toolcall.Call{Tool: fake, Args: []string{"lines", "--json"}}, func(l []byte) { got = append(got, string(l)) })
	if err != nil || strings.Join(got, " ") != `{"n":1} {"n":2} {"n":3}` {
		t.Errorf("lines %q, err %v", got, err)
	}
	err = toolcall.Lines(context.Background(), toolcall.Call{Tool: fake, Args: []string{"fail", "--json"}}, func([]byte) {})
	if clierr.As(err).Code != worktreeapi.CodePathConflict {
		t.Errorf("a failing tool's lines: %v, want its own error", err)
	}
}

// A stale binary of another install speaking another version refuses the
// call before doing anything, and the caller's error names both binaries
// and both versions.
func TestAnotherVersionIsAMismatch(t *testing.T) {
	t.Setenv(envSpeaks, "2")
	var got answer
	err := toolcall.Run(context.Background(), toolcall.Call{Tool: fake, Args: []string{"echo", "--json"}, Input: map[string]int{"n": 1}}, &got)
	ce := clierr.As(err)
	self, _ := os.Executable()
	callee := filepath.Join(os.Getenv("STRATOS_BIN_DIR"), fake)
	if ce.Code != errcode.CodeToolProtocolMismatch || got.Got != nil {
		t.Fatalf("err = %v, answer %+v; want tool_protocol_mismatch and no answer", err, got)
	}
	want := filepath.Base(self) + " (" + self + ") speaks tool protocol 1, but the " + fake + " it runs (" + callee + ") speaks 2"
	if !strings.HasPrefix(ce.Message, want) || !strings.Contains(ce.Message, "scripts/install") {
		t.Errorf("message %q, want it to begin %q and say how to install", ce.Message, want)
	}
	d := ce.Details
	if d["tool"] != fake || d["path"] != callee || d["protocol"] != "2" || d["callerPath"] != self || d["callerProtocol"] != toolcall.Version {
		t.Errorf("details %v", d)
	}
}

// The callee's side: a tool run with another version stated answers
// tool_protocol_mismatch (exit 1) and runs nothing; the statement is gone
// from the environment its command (and whatever it runs) sees.
func TestTheCalleeChecksTheStatedVersion(t *testing.T) {
	run := func(stated string, args ...string) (string, int) {
		cmd := exec.Command(filepath.Join(os.Getenv("STRATOS_BIN_DIR"), fake), args...)
		cmd.Env = append(os.Environ(), toolcall.EnvVersion+"="+stated)
		out, err := cmd.Output()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatal(err)
		}
		return string(out), cmd.ProcessState.ExitCode()
	}
	out, status := run("9", "env", "--json")
	self, _ := os.Executable()
	if status != clierr.ExitFailed || !strings.HasPrefix(out, `{"error":{"code":"`+errcode.CodeToolProtocolMismatch+`","message":"`+self+` speaks tool protocol 1, but the tool running it speaks \"9\"`) {
		t.Errorf("stated 9: exit %d, %s", status, out)
	}
	out, status = run(toolcall.Version, "env", "--json")
	var seen struct {
		Set bool `json:"set"`
	}
	if status != 0 || json.Unmarshal([]byte(out), &seen) != nil || seen.Set {
		t.Errorf("stated %s: exit %d, %s; want the command run without the statement in its environment", toolcall.Version, status, out)
	}
}

func TestCancellationEndsTheToolAtOnce(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- toolcall.Run(ctx, toolcall.Call{Tool: fake, Args: []string{"hang", "--dir", dir, "--json"}}, nil)
	}()
	pid := awaitPid(t, dir)
	cancel()
	err := <-done
	ce := clierr.As(err)
	if ce.Code != errcode.CodeInterrupted || ce.Exit != clierr.ExitInterrupted || !errors.Is(err, context.Canceled) {
		t.Errorf("err = %+v, want interrupted", ce)
	}
	if syscall.Kill(pid, 0) == nil {
		t.Errorf("the tool (pid %d) still runs", pid)
	}
	if _, err := os.Stat(filepath.Join(dir, "terminated")); err == nil {
		t.Error("the tool was asked to stop (SIGTERM) instead of being killed")
	}
}

// With StopGrace the tool is asked to stop (SIGTERM) and may finish.
func TestStopGraceLetsTheToolStop(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- toolcall.Run(ctx, toolcall.Call{Tool: fake, Args: []string{"hang", "--dir", dir, "--json"}, StopGrace: time.Minute}, nil)
	}()
	awaitPid(t, dir)
	cancel()
	if err := <-done; clierr.As(err).Code != errcode.CodeInterrupted {
		t.Errorf("err = %v, want interrupted", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "terminated")); err != nil {
		t.Errorf("the tool did not get to stop: %v", err)
	}
}

func TestADeadlineIsAFailure(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	err := toolcall.Run(ctx, toolcall.Call{Tool: fake, Args: []string{"hang", "--dir", t.TempDir(), "--json"}}, nil)
	if ce := clierr.As(err); ce.Code != errcode.CodeToolFailed || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(ce.Message, fake+" hang did not finish in time") {
		t.Errorf("err = %v", err)
	}
}

// STRATOS_DEBUG_WIRE=1 logs the argv, stdin, stdout and exit status of a
// call, secrets redacted, and never the environment.
func TestTheWireLogShowsTheCall(t *testing.T) {
	t.Setenv(wirelog.EnvVar, "1")
	t.Setenv("FAKE_SERVICE_TOKEN", "sk-in-the-environment")
	var log bytes.Buffer
	call := toolcall.Call{Tool: fake, Args: []string{"echo", "--overrides", `{"token":"sk-in-argv"}`, "--json"},
		Input: map[string]string{"apiKey": "sk-in-input", "name": "Ada"}, WireLog: &log}
	if err := toolcall.Run(context.Background(), call, &answer{}); err != nil {
		t.Fatal(err)
	}
	callee := filepath.Join(os.Getenv("STRATOS_BIN_DIR"), fake)
	self, _ := os.Executable()
	lines := strings.Split(strings.TrimSuffix(log.String(), "\n"), "\n")
	want := []string{
		`^stratos wire: stratos-fake\[\d+\] echo argv \["` + regexp.QuoteMeta(callee) + `","echo","--overrides","\{\\"token\\":\\"\[redacted\]\\"\}","--json"\] \(tool protocol 1, run by ` + regexp.QuoteMeta(filepath.Base(self)) + `\)$`,
		`^stratos wire: stratos-fake\[\d+\] echo <- \{"apiKey":"\[redacted\]","name":"Ada"\}$`,
		`^stratos wire: stratos-fake\[\d+\] echo -> \{"got":\{"apiKey":"\[redacted\]","name":"Ada"\},"valid":true\}$`,
		`^stratos wire: stratos-fake\[\d+\] echo exit 0$`,
	}
	if len(lines) != len(want) {
		t.Fatalf("wire log:\n%s", log.String())
	}
	for i, w := range want {
		if !regexp.MustCompile(w).MatchString(lines[i]) {
			t.Errorf("line %d:\n%s\nwant it to match\n%s", i+1, lines[i], w)
		}
	}
	for _, secret := range []string{"sk-in-", "FAKE_SERVICE_TOKEN", toolcall.EnvVersion} {
		if strings.Contains(log.String(), secret) {
			t.Errorf("the wire log shows %q:\n%s", secret, log.String())
		}
	}
}

func TestTheWireLogShowsAFailureAndAStop(t *testing.T) {
	t.Setenv(wirelog.EnvVar, "1")
	var log bytes.Buffer
	_ = toolcall.Run(context.Background(), toolcall.Call{Tool: fake, Args: []string{"fail", "--json"}, WireLog: &log}, nil)
	_ = toolcall.Run(context.Background(), toolcall.Call{Tool: fake, Args: []string{"flood", "--json"}, MaxOutput: 1024, WireLog: &log}, nil)
	for _, w := range []string{
		`(?m)^stratos wire: stratos-fake\[\d+\] fail -> \{"error":\{"code":"path_conflict",.*\}\}$`,
		`(?m)^stratos wire: stratos-fake\[\d+\] fail exit 2$`,
		`(?m)^stratos wire: stratos-fake\[\d+\] flood -> \(\d+ bytes that are not JSON\)$`,
		`(?m)^stratos wire: stratos-fake\[\d+\] flood ended by signal: killed \(stopped: stdout more than the limit of 1 KiB \(reading stopped there\)\)$`,
	} {
		if !regexp.MustCompile(w).MatchString(log.String()) {
			t.Errorf("no line matching %s in\n%s", w, log.String())
		}
	}
}

func TestNoWireLogWithoutTheVariable(t *testing.T) {
	t.Setenv(wirelog.EnvVar, "")
	var log bytes.Buffer
	if err := toolcall.Run(context.Background(), toolcall.Call{Tool: fake, Args: []string{"echo", "--json"}, WireLog: &log}, &answer{}); err != nil || log.Len() != 0 {
		t.Errorf("err %v, wire log %q", err, log.String())
	}
}

// awaitPid waits for the hanging fake to write its pid: a bound for a
// broken test, never a timing assertion.
func awaitPid(t *testing.T, dir string) int {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		b, err := os.ReadFile(filepath.Join(dir, "pid"))
		if err == nil {
			pid, err := strconv.Atoi(string(b))
			if err != nil {
				t.Fatal(err)
			}
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatal("the tool did not start within a minute")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
