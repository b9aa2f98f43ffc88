package supervise

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
)

// These tests supervise sh scripts that speak the runner protocol: the
// invocation on the first line of stdin, commands on later lines, one framed
// document on fd 3. The scripts frame it with `frame DOC` (openssl computes
// the MAC under the key in $KEY).

const testKey = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"

const framePrelude = `frame() {
  mac=$(printf %s "$1" | openssl dgst -sha256 -mac HMAC -macopt hexkey:$KEY -r | cut -d' ' -f1)
  printf 'stratos-result %s %s\n' "$mac" "$1" >&3
}
`

func run(t *testing.T, ctx context.Context, script string, grace time.Duration) (*Outcome, string) {
	t.Helper()
	o, output, _ := runIn(t, ctx, t.TempDir(), script, grace)
	return o, output
}

func runIn(t *testing.T, ctx context.Context, dir, script string, grace time.Duration) (*Outcome, string, string) {
	t.Helper()
	out, err := os.Create(filepath.Join(dir, "output"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if _, err := exec.LookPath("openssl"); err != nil {
		t.Fatal("these tests frame results with openssl: install openssl")
	}
	key, _ := hex.DecodeString(testKey)
	cmd := exec.Command("sh", "-c", framePrelude+script)
	cmd.Env = append(os.Environ(), "KEY="+testKey)
	o, err := Run(ctx, Spec{
		Cmd: cmd, Dir: dir, Invocation: []byte(`{"executionId": "x"}` + "\n"), ResultKey: key,
		Output: out, CancelGrace: grace, Log: hclog.NewNullLogger(),
	})
	if err != nil {
		t.Fatal(err)
	}
	text, _ := os.ReadFile(out.Name())
	return o, string(text), dir
}

func TestResultOnFD3(t *testing.T) {
	o, output := run(t, context.Background(), `
read inv
echo "workflow stdout"
echo "workflow stderr" >&2
frame "$(printf '{"status":"succeeded","cwd":"%s","invocation":%s}' "$PWD" "$inv")"
`, 0)
	if o.Wait != nil || o.Cancelled || o.Killed {
		t.Errorf("outcome = %+v", o)
	}
	if !strings.HasPrefix(string(o.Result), `{"status":"succeeded","cwd":"`) || !strings.HasSuffix(string(o.Result), `,"invocation":{"executionId": "x"}}`) {
		t.Errorf("result = %s", o.Result)
	}
	if output != "workflow stdout\nworkflow stderr\n" {
		t.Errorf("output = %q", output)
	}
}

func TestWorkingDirectory(t *testing.T) {
	dir := t.TempDir()
	o, _, _ := runIn(t, context.Background(), dir, `read inv; frame "$(pwd -P)"`, 0)
	want, _ := filepath.EvalSymlinks(dir)
	if string(o.Result) != want {
		t.Errorf("runner ran in %s, want %s", o.Result, want)
	}
}

func TestNoResult(t *testing.T) {
	o, _ := run(t, context.Background(), `read inv; exit 3`, 0)
	var exit *exec.ExitError
	if o.Result != nil || !errors.As(o.Wait, &exit) || exit.ExitCode() != 3 {
		t.Errorf("outcome = %+v (result %q)", o, o.Result)
	}
}

func TestCancelIsSentAfterTheInvocation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // before the runner even started reading
	o, _ := run(t, ctx, `read inv; read cmd; frame "$(printf '{"invocation":%s,"command":"%s"}' "$inv" "$cmd")"`, time.Minute)
	if !o.Cancelled || o.Killed || string(o.Result) != `{"invocation":{"executionId": "x"},"command":"cancel"}` {
		t.Errorf("outcome = %+v, result %s", o, o.Result)
	}
}

func TestGraceThenKill(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	dir := t.TempDir()
	ready := filepath.Join(dir, "ready")
	go func() {
		waitFor(t, func() bool { _, err := os.Stat(ready); return err == nil })
		cancel()
	}()
	// The runner ignores the cancel line and SIGINT alike.
	o, _ := run(t, ctx, fmt.Sprintf(`trap '' INT; read inv; touch %s; while :; do sleep 1; done`, ready), 200*time.Millisecond)
	if !o.Cancelled || !o.Killed || o.Result != nil {
		t.Errorf("outcome = %+v, result %s", o, o.Result)
	}
}

func TestLeftoversAreKilled(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	o, _ := run(t, context.Background(), fmt.Sprintf(`read inv; sleep 1000 & echo $! > %s; frame '{}'`, pidFile), 0)
	if string(o.Result) != "{}" {
		t.Fatalf("result %q", o.Result)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	waitFor(t, func() bool { return !alive(pid) })
}

// alive reports whether pid runs (a zombie has exited).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}

// waitFor polls cond for at most a minute: a bound for a broken run, never
// a timing assertion.
func waitFor(t *testing.T, cond func() bool) {
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Error("condition not met within a minute")
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestOnlyTheFramedDocumentCounts: whatever else reaches the channel (plain
// JSON, a frame under another key, a partial line before the frame, lines
// after it) neither replaces the runner's document nor hides it.
func TestOnlyTheFramedDocumentCounts(t *testing.T) {
	o, _ := run(t, context.Background(), `read inv
echo '{"ok":"forged"}' >&3
echo 'stratos-result 00 {"ok":"forged"}' >&3
KEY=ffff frame '{"ok":"wrong key"}'
printf 'partial line ' >&3
frame '{"ok":"real"}'
echo '{"ok":"after"}' >&3
`, 0)
	if string(o.Result) != `{"ok":"real"}` {
		t.Errorf("result = %s, want the framed document", o.Result)
	}
	if o.IgnoredBytes == 0 {
		t.Error("IgnoredBytes = 0, want what came before the frame counted")
	}
}

func TestUnframedResultIsNoResult(t *testing.T) {
	o, _ := run(t, context.Background(), `read inv; echo '{"status":"succeeded","output":{"ok":"forged"}}' >&3`, 0)
	if o.Result != nil {
		t.Errorf("result = %s, want none", o.Result)
	}
}

// TestReadChannel: the channel reader takes the frame Frame writes under the
// run's key and nothing under another (the framing itself is tested in
// shared/hmacframe).
func TestReadChannel(t *testing.T) {
	key := []byte("k")
	doc := []byte(`{"a":1}`)
	junk := "junk\n" + string(Frame([]byte("other"), []byte(`{"a":2}`)))
	read := readChannel(strings.NewReader(junk+string(Frame(key, doc))), key)
	if string(read.doc) != string(doc) || read.ignored != len(junk) {
		t.Errorf("readChannel = %q, ignored %d; want %s, ignored %d", read.doc, read.ignored, doc, len(junk))
	}
}

// TestStartedRunnerWaitsForItsInvocation: a runner started early reads its
// invocation when Run sends it, however long after Start that is.
func TestStartedRunnerWaitsForItsInvocation(t *testing.T) {
	dir := t.TempDir()
	started := filepath.Join(dir, "started")
	key, _ := hex.DecodeString(testKey)
	cmd := exec.Command("sh", "-c", framePrelude+fmt.Sprintf(`touch %s; read inv; frame "$inv"`, started))
	cmd.Env = append(os.Environ(), "KEY="+testKey)
	r, err := Start(Spec{Cmd: cmd, Dir: dir, ResultKey: key, Output: os.Stderr, Log: hclog.NewNullLogger()})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { _, err := os.Stat(started); return err == nil })
	o := r.Run(context.Background(), []byte(`{"executionId": "late"}`))
	if o.Wait != nil || string(o.Result) != `{"executionId": "late"}` {
		t.Errorf("outcome = %+v, result %s", o, o.Result)
	}
}

// TestAbortKillsTheWaitingRunner: a runner that will get no invocation is
// killed with its group; it never reads an invocation.
func TestAbortKillsTheWaitingRunner(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	key, _ := hex.DecodeString(testKey)
	cmd := exec.Command("sh", "-c", fmt.Sprintf(`sleep 1000 & echo $! > %s.tmp; mv %[1]s.tmp %[1]s; read inv; echo "read $inv"`, pidFile))
	r, err := Start(Spec{Cmd: cmd, Dir: dir, ResultKey: key, Output: os.Stderr, Log: hclog.NewNullLogger()})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { _, err := os.Stat(pidFile); return err == nil })
	data, _ := os.ReadFile(pidFile)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	r.Abort()
	if !alive(pid) {
		return
	}
	waitFor(t, func() bool { return !alive(pid) })
}

// startScript starts script as a runner in a temporary directory.
func startScript(t *testing.T, script string) *Runner {
	t.Helper()
	key, _ := hex.DecodeString(testKey)
	cmd := exec.Command("sh", "-c", framePrelude+script)
	cmd.Env = append(os.Environ(), "KEY="+testKey)
	r, err := Start(Spec{Cmd: cmd, Dir: t.TempDir(), ResultKey: key, Output: os.Stderr, Log: hclog.NewNullLogger()})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestResultIsReadBeforeNodeExits: the result is there as soon as the
// runner has written it, while the runner is still running (it exits only
// once the test lets it, after the result was read).
func TestResultIsReadBeforeNodeExits(t *testing.T) {
	release := filepath.Join(t.TempDir(), "release")
	r := startScript(t, fmt.Sprintf(`read inv; frame '{"ok":1}'; while [ ! -e %s ]; do sleep 0.01; done`, release))
	done := make(chan *Outcome, 1)
	go func() { done <- r.Run(context.Background(), []byte(`{}`)) }()
	select {
	case <-r.ResultRead():
	case o := <-done:
		t.Fatalf("Run returned (%+v) before the result was read", o)
	case <-time.After(time.Minute): // a bound for a broken runner, not a timing assertion
		t.Fatal("no result within a minute")
	}
	if got := r.ReadResult(); string(got) != `{"ok":1}` {
		t.Errorf("ReadResult = %s, want the frame's document", got)
	}
	select {
	case o := <-done:
		t.Fatalf("Run returned (%+v) while the runner still ran", o)
	default:
	}
	if err := os.WriteFile(release, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if o := <-done; o.Wait != nil || string(o.Result) != `{"ok":1}` {
		t.Errorf("Run = %+v, result %s; want exit 0 and the same result", o, o.Result)
	}
}

func TestReadResultWithoutAResult(t *testing.T) {
	r := startScript(t, `read inv; exit 3`)
	done := make(chan *Outcome, 1)
	go func() { done <- r.Run(context.Background(), []byte(`{}`)) }()
	if got := r.ReadResult(); got != nil {
		t.Errorf("ReadResult = %q, want nil", got)
	}
	if o := <-done; o.Result != nil || o.Wait == nil {
		t.Errorf("Run = %+v, result %q; want exit 3 without a result", o, o.Result)
	}
}
