package gitx

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Cancelling a git command ends its whole process group: a hook git runs
// (here a post-checkout hook that starts a long sleep) does not outlive it,
// and the cancelled command returns instead of waiting for the hook's
// children to close its output.
func TestCancelEndsGitAndItsHooks(t *testing.T) {
	repo := t.TempDir()
	pidFile := filepath.Join(t.TempDir(), "hook.pid")
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "first")
	hook := "#!/bin/sh\nsleep 300 &\necho $! >" + pidFile + ".tmp\nmv " + pidFile + ".tmp " + pidFile + "\nwait\n"
	if err := os.WriteFile(filepath.Join(repo, ".git", "hooks", "post-checkout"), []byte(hook), 0o755); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := (&Git{}).Run(ctx, repo, "worktree", "add", "-q", filepath.Join(repo, "wt"))
		done <- err
	}()
	pid := waitForPID(t, pidFile)
	cancel()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a cancelled git command reported success")
		}
	case <-time.After(30 * time.Second):
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("the cancelled git command did not return: its hook's process %d still holds its output", pid)
	}
	for deadline := time.Now().Add(10 * time.Second); alive(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the hook's process %d outlived the cancelled git command", pid)
		}
	}
}

func waitForPID(t *testing.T, path string) int {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(path); err == nil {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatalf("hook pid file: %v", err)
			}
			return pid
		}
	}
	t.Fatal("the post-checkout hook never started")
	return 0
}

// alive reports whether pid runs (a zombie waiting for its reaper counts as
// gone: it runs nothing).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	fields := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}
