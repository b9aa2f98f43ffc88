package command

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/toolchain/toolchaintest"
)

// hostRoleVar makes this test binary run `stratos-agent serve` instead of
// the tests, so a real node process can start the real host.
const hostRoleVar = "STRATOS_AGENT_TEST_SERVE"

func TestMain(m *testing.M) {
	if os.Getenv(hostRoleVar) == "1" {
		os.Exit(Main([]string{"stratos-agent", "serve"}, os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// starter is the SDK's start of the agent host (shared/sdk/src/agent-host.ts:
// stdin and stdout piped, stderr inherited), plus another child of node
// that holds the write end of the host's stdin, as a process workflow code
// started could. It waits for the host's first answer, so the host is
// serving, prints both process IDs and stays until it is killed.
const starter = `
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
const host = spawn(process.argv[1], ["serve"], { stdio: ["pipe", "pipe", "inherit"] });
const holder = spawn("sleep", ["600"], { stdio: ["ignore", "ignore", "inherit", host.stdin] });
const lines = createInterface({ input: host.stdout });
lines.once("line", () => {
  console.log(JSON.stringify({ host: host.pid, holder: holder.pid }));
});
host.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "agent.cancel", params: {} }) + "\n");
setInterval(() => {}, 60_000);
`

// giveUp bounds the wait for the host to exit after its parent's death; it
// only turns a hang into a failure (the host exits well within it).
const giveUp = 30 * time.Second

// When the node process that started the agent host dies by SIGKILL while
// another process keeps the host's stdin open, the host exits anyway.
func TestServeExitsWhenTheStartingNodeIsKilled(t *testing.T) {
	tc := toolchaintest.Ensure(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	node := tc.NodeCommand(context.Background(), "--input-type=module", "-e", starter, self)
	node.Env = append(node.Env, hostRoleVar+"=1", "HOME="+t.TempDir())
	// A file, not a pipe: the host and the holder inherit node's stderr, and
	// Wait would wait for them to close a pipe.
	stderr, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer logFile(t, stderr)
	node.Stderr = stderr
	out, err := node.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := node.Start(); err != nil {
		t.Fatalf("start node: %v", err)
	}
	defer func() { _ = node.Process.Kill(); _ = node.Wait() }()
	var pids struct{ Host, Holder int }
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("node printed no process IDs: %v", err)
	}
	if err := json.Unmarshal([]byte(line), &pids); err != nil || pids.Host == 0 || pids.Holder == 0 {
		t.Fatalf("node printed %q: %v", line, err)
	}
	defer func() { _ = syscall.Kill(pids.Holder, syscall.SIGKILL) }()
	defer func() { _ = syscall.Kill(pids.Host, syscall.SIGKILL) }()

	if err := node.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = node.Wait()
	if err := awaitGone(pids.Host, giveUp); err != nil {
		t.Fatalf("agent host (pid %d) after its node was killed, its stdin still open: %v", pids.Host, err)
	}
	if !alive(pids.Holder) {
		t.Fatal("the stdin holder is gone too: the test no longer proves that the end of stdin is not needed")
	}
}

// awaitGone polls until pid has exited (a zombie has: it only waits to be
// reaped by its new parent).
func awaitGone(pid int, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for alive(pid) {
		if time.Now().After(deadline) {
			return fmt.Errorf("still running after %v", limit)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil
}

func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}

// logFile logs what node and the host wrote to stderr.
func logFile(t *testing.T, f *os.File) {
	if b, err := os.ReadFile(f.Name()); err == nil && len(b) > 0 {
		t.Logf("stderr of node and the host:\n%s", b)
	}
	_ = f.Close()
}
