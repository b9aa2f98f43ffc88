package command

// Concurrency and fault tests: real stratos-worktree processes (this test
// binary re-executed as the CLI) against real git repositories.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofrs/flock"
)

const (
	envRole = "STRATOS_WORKTREE_TEST_ROLE" // "cli" or "hold-lock"
	envLock = "STRATOS_WORKTREE_TEST_LOCK" // lock file for "hold-lock"
	envHold = "STRATOS_WORKTREE_TEST_HOLD" // how long "hold-lock" holds it
)

func TestMain(m *testing.M) {
	switch os.Getenv(envRole) {
	case "cli":
		os.Exit(Main(os.Args, os.Stdin, os.Stdout, os.Stderr))
	case "hold-lock":
		os.Exit(holdLock(os.Getenv(envLock), os.Getenv(envHold)))
	}
	os.Exit(m.Run())
}

// holdLock plays another Stratos process holding a bookkeeping lock.
func holdLock(path, hold string) int {
	d, err := time.ParseDuration(hold)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	lk := flock.New(path)
	if err := lk.Lock(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	fmt.Println("locked")
	time.Sleep(d)
	_ = lk.Unlock()
	return 0
}

// processBound stops a hung child; hitting it fails the test through the
// child's exit status, it is not a timing assertion.
const processBound = 2 * time.Minute

func gitEnv() []string {
	return append(os.Environ(),
		"GIT_AUTHOR_NAME=Stratos Test", "GIT_AUTHOR_EMAIL=test@example.com",
		"GIT_COMMITTER_NAME=Stratos Test", "GIT_COMMITTER_EMAIL=test@example.com",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "STRATOS_LOG_LEVEL=warn")
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = gitEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// newRepo makes a repository with one commit.
func newRepo(t *testing.T) string {
	t.Helper()
	repo := filepath.Join(t.TempDir(), "repo")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(repo, "file.txt"), []byte("original\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "add", ".")
	git(t, repo, "commit", "-q", "-m", "first")
	real, err := filepath.EvalSymlinks(repo)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

// cliCommand returns the command running stratos-worktree with args.
func cliCommand(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(gitEnv(), envRole+"=cli")
	return cmd
}

type cliRun struct {
	stdout, stderr string
	exit           int
}

func runCLI(t *testing.T, args ...string) cliRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), processBound)
	defer cancel()
	cmd := cliCommand(ctx, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	_ = cmd.Run()
	return cliRun{stdout: stdout.String(), stderr: stderr.String(), exit: cmd.ProcessState.ExitCode()}
}

// mustJSON runs the CLI with --json, requires exit 0 and decodes stdout.
func mustJSON(t *testing.T, out any, args ...string) {
	t.Helper()
	r := runCLI(t, append(args, "--json")...)
	if r.exit != 0 {
		t.Fatalf("stratos-worktree %v: exit %d\nstdout: %s\nstderr: %s", args, r.exit, r.stdout, r.stderr)
	}
	if err := json.Unmarshal([]byte(r.stdout), out); err != nil {
		t.Fatalf("stratos-worktree %v: stdout is not one JSON document: %v\n%s", args, err, r.stdout)
	}
}

type acquireOut struct {
	Path    string `json:"path"`
	Created bool   `json:"created"`
	Reused  bool   `json:"reused"`
}

type settlementOut struct {
	Released bool   `json:"released"`
	Outcome  string `json:"outcome"`
	Reason   string `json:"reason"`
	Warnings []struct {
		Code string `json:"code"`
	} `json:"warnings"`
	StaleOwnersRemoved []struct {
		ID string `json:"id"`
	} `json:"staleOwnersRemoved"`
}

type listOut struct {
	Worktrees []struct {
		Name       string `json:"name"`
		CheckedOut bool   `json:"checkedOut"`
		Owners     []struct {
			ID   string `json:"id"`
			Live bool   `json:"live"`
		} `json:"owners"`
	} `json:"worktrees"`
}

type reconcileOut struct {
	StaleOwnersRemoved []struct {
		Name string `json:"name"`
		ID   string `json:"id"`
	} `json:"staleOwnersRemoved"`
	Worktrees []settlementOut `json:"worktrees"`
	Warnings  []struct {
		Code string `json:"code"`
	} `json:"warnings"`
}

// shCommand runs script with sh, $0 being the stratos-worktree CLI and $1…
// the args: sh then stands for an owner process such as an agent host.
func shCommand(ctx context.Context, script string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "sh", append([]string{"-c", script, os.Args[0]}, args...)...)
	cmd.Env = append(gitEnv(), envRole+"=cli")
	return cmd
}

// parallel starts n processes at once (command(ctx, i) makes the i-th) and
// returns their results in order.
func parallel(t *testing.T, n int, command func(ctx context.Context, i int) *exec.Cmd) []cliRun {
	t.Helper()
	results := make([]cliRun, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), processBound)
			defer cancel()
			cmd := command(ctx, i)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			<-start
			_ = cmd.Run()
			results[i] = cliRun{stdout: stdout.String(), stderr: stderr.String(), exit: cmd.ProcessState.ExitCode()}
		})
	}
	close(start)
	wg.Wait()
	return results
}

func registryDir(repo string) string { return filepath.Join(repo, ".git", "stratos", "worktrees") }

// 20 processes acquire the same named worktree at once, then release it at
// once: no registration is lost, exactly one creates and exactly one
// removes, every process prints one valid JSON document, and nothing is left
// half-written.
func TestParallelAcquireAndReleaseOfOneName(t *testing.T) {
	const n = 20
	repo := newRepo(t)
	acquired := parallel(t, n, func(ctx context.Context, i int) *exec.Cmd {
		return cliCommand(ctx, "acquire", "--repo", repo, "--name", "shared", "--owner", fmt.Sprintf("run-%02d", i), "--json")
	})
	created := 0
	for i, r := range acquired {
		var out acquireOut
		if r.exit != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil {
			t.Fatalf("acquire %d: exit %d\nstdout: %s\nstderr: %s", i, r.exit, r.stdout, r.stderr)
		}
		if out.Path != filepath.Join(repo, ".stratos", "worktrees", "shared") || out.Created == out.Reused {
			t.Fatalf("acquire %d: %+v", i, out)
		}
		if out.Created {
			created++
		}
	}
	if created != 1 {
		t.Fatalf("%d processes created the checkout, want exactly 1", created)
	}
	var list listOut
	mustJSON(t, &list, "list", "--repo", repo)
	if len(list.Worktrees) != 1 || len(list.Worktrees[0].Owners) != n {
		t.Fatalf("after %d parallel acquires the registry holds %+v, want one worktree with %d owners", n, list.Worktrees, n)
	}

	released := parallel(t, n, func(ctx context.Context, i int) *exec.Cmd {
		return cliCommand(ctx, "release", "--repo", repo, "--name", "shared", "--owner", fmt.Sprintf("run-%02d", i), "--json")
	})
	removed := 0
	for i, r := range released {
		var out settlementOut
		if r.exit != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil || !out.Released {
			t.Fatalf("release %d: exit %d\nstdout: %s\nstderr: %s", i, r.exit, r.stdout, r.stderr)
		}
		switch {
		case out.Outcome == "removed":
			removed++
		case out.Outcome != "kept" || out.Reason != "in_use":
			t.Fatalf("release %d: outcome %s/%s, want removed or kept/in_use", i, out.Outcome, out.Reason)
		}
	}
	if removed != 1 {
		t.Fatalf("%d releases removed the checkout, want exactly 1 (the last)", removed)
	}
	assertGone(t, repo, "shared")
}

// Each of 20 processes acquires and then releases, all at once: whatever the
// interleaving (a checkout may be removed and recreated from its branch
// several times), every call succeeds and the last release leaves nothing.
func TestParallelAcquireReleaseCycles(t *testing.T) {
	const n = 20
	repo := newRepo(t)
	// One sh per cycle runs acquire then release with the same owner; sh
	// is the owner process (the parent of both).
	script := `"$0" acquire --repo "$1" --name cycle --owner "$2" --json && "$0" release --repo "$1" --name cycle --owner "$2" --json`
	results := parallel(t, n, func(ctx context.Context, i int) *exec.Cmd {
		return shCommand(ctx, script, repo, fmt.Sprintf("cycle-%02d", i))
	})
	for i, r := range results {
		if r.exit != 0 {
			t.Fatalf("cycle %d: exit %d\nstdout: %s\nstderr: %s", i, r.exit, r.stdout, r.stderr)
		}
		dec := json.NewDecoder(strings.NewReader(r.stdout))
		for range 2 {
			var v map[string]any
			if err := dec.Decode(&v); err != nil {
				t.Fatalf("cycle %d: output is not two JSON documents: %v\n%s", i, err, r.stdout)
			}
		}
	}
	assertGone(t, repo, "cycle")
}

// assertGone checks that name's checkout and record are gone, its branch is
// kept, and no temp file of an interrupted write is left.
func assertGone(t *testing.T, repo, name string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(repo, ".stratos", "worktrees", name)); !os.IsNotExist(err) {
		t.Fatalf("checkout %s still exists (%v)", name, err)
	}
	if _, err := os.Stat(filepath.Join(registryDir(repo), name+".json")); !os.IsNotExist(err) {
		t.Fatalf("record of %s still exists (%v)", name, err)
	}
	git(t, repo, "rev-parse", "--verify", "-q", "refs/heads/stratos/"+name)
	temps, _ := filepath.Glob(filepath.Join(registryDir(repo), "*.tmp-*"))
	if len(temps) != 0 {
		t.Fatalf("temp files left: %v", temps)
	}
	if out := git(t, repo, "worktree", "list", "--porcelain"); strings.Contains(out, "/"+name+"\n") {
		t.Fatalf("git still lists worktree %s:\n%s", name, out)
	}
}

// Another process holds the worktree's bookkeeping lock for 6 s: release
// waits at most 5 s, then preserves the checkout and reports lock_timeout
// softly (exit 0), without breaking the other process's lock. Once the lock
// is free, a new release cleans up.
func TestCleanupPreservesCheckoutOnLockTimeout(t *testing.T) {
	repo := newRepo(t)
	var acq acquireOut
	mustJSON(t, &acq, "acquire", "--repo", repo, "--name", "locked", "--owner", "run-1")

	holder := exec.Command(os.Args[0], "-test.run=^$")
	holder.Env = append(os.Environ(), envRole+"=hold-lock", envLock+"="+filepath.Join(registryDir(repo), "locked.lock"), envHold+"=6s")
	holderOut, err := holder.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = holder.Process.Kill(); _ = holder.Wait() }()
	if line, _ := bufio.NewReader(holderOut).ReadString('\n'); line != "locked\n" {
		t.Fatalf("lock holder said %q", line)
	}

	var rel settlementOut
	mustJSON(t, &rel, "release", "--repo", repo, "--name", "locked", "--owner", "run-1")
	if rel.Outcome != "kept" || rel.Reason != "lock_timeout" || len(rel.Warnings) == 0 || rel.Warnings[len(rel.Warnings)-1].Code != "lock_timeout" {
		t.Fatalf("release under a held lock: %+v, want kept/lock_timeout with a lock_timeout warning", rel)
	}
	if _, err := os.Stat(acq.Path); err != nil {
		t.Fatalf("checkout not preserved: %v", err)
	}
	// The holder still had its lock for its full time: it exits 0 only
	// after unlocking normally.
	if err := holder.Wait(); err != nil {
		t.Fatalf("lock holder: %v", err)
	}

	mustJSON(t, &rel, "release", "--repo", repo, "--name", "locked", "--owner", "run-1")
	if !rel.Released || rel.Outcome != "removed" {
		t.Fatalf("release after the lock was freed: %+v, want released and removed", rel)
	}
}

// An owner killed with SIGKILL cannot release; the next reconcile finds its
// process gone and cleans up.
func TestOwnerKilledWithSIGKILLIsReconciled(t *testing.T) {
	repo := newRepo(t)
	// sh stands for an agent host: it runs acquire (so it is the owner, the
	// parent of acquire) and then stays alive as the same process.
	script := `"$0" acquire --repo "$1" --name crash --owner host --json && echo READY && exec sleep 300`
	host := shCommand(context.Background(), script, repo)
	stdout, err := host.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = host.Process.Kill(); _ = host.Wait() }()
	var acquired strings.Builder
	sc := bufio.NewScanner(stdout)
	for sc.Scan() && sc.Text() != "READY" {
		acquired.WriteString(sc.Text() + "\n")
	}
	var acq acquireOut
	if err := json.Unmarshal([]byte(acquired.String()), &acq); err != nil || !acq.Created {
		t.Fatalf("host's acquire: %v\n%s", err, acquired.String())
	}

	var list listOut
	mustJSON(t, &list, "list", "--repo", repo)
	if len(list.Worktrees) != 1 || len(list.Worktrees[0].Owners) != 1 || !list.Worktrees[0].Owners[0].Live {
		t.Fatalf("before the kill: %+v, want one live owner", list.Worktrees)
	}

	if err := host.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	_ = host.Wait()

	var rec reconcileOut
	mustJSON(t, &rec, "reconcile", "--repo", repo)
	if len(rec.StaleOwnersRemoved) != 1 || rec.StaleOwnersRemoved[0].ID != "host" {
		t.Fatalf("reconcile dropped %+v, want owner host", rec.StaleOwnersRemoved)
	}
	if len(rec.Worktrees) != 1 || rec.Worktrees[0].Outcome != "removed" {
		t.Fatalf("reconcile: %+v, want the checkout removed", rec.Worktrees)
	}
	assertGone(t, repo, "crash")
}

// A live pid with another start time is a different process that reused the
// pid: its registration is stale.
func TestReusedPIDIsNotALiveOwner(t *testing.T) {
	repo := newRepo(t)
	var acq acquireOut
	mustJSON(t, &acq, "acquire", "--repo", repo, "--name", "reused", "--owner", "old-host")
	recPath := filepath.Join(registryDir(repo), "reused.json")
	var rec map[string]any
	data, err := os.ReadFile(recPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	owner := rec["owners"].([]any)[0].(map[string]any)
	// This test process is alive; pretend the recorded owner was an earlier
	// process with the same pid.
	owner["pid"] = os.Getpid()
	owner["startTime"] = owner["startTime"].(float64) - 1
	data, _ = json.Marshal(rec)
	if err := os.WriteFile(recPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var out reconcileOut
	mustJSON(t, &out, "reconcile", "--repo", repo)
	if len(out.StaleOwnersRemoved) != 1 || out.Worktrees[0].Outcome != "removed" {
		t.Fatalf("reconcile: %+v, want the reused-pid owner dropped and the checkout removed", out)
	}
}

// A writer that crashed between writing its temp file and renaming it left
// the temp file behind: the record still reads as before, and reconcile
// removes the leftover under the lock.
func TestReconcileRemovesTempFileOfACrashedWriter(t *testing.T) {
	repo := newRepo(t)
	var acq acquireOut
	mustJSON(t, &acq, "acquire", "--repo", repo, "--name", "w", "--cleanup=false")
	leftover := filepath.Join(registryDir(repo), ".w.json.tmp-123456") // atomicfile's temp name
	if err := os.WriteFile(leftover, []byte(`{"formatVersion":1,"name":"w","owners":[{"id":"half`), 0o644); err != nil {
		t.Fatal(err)
	}
	var list listOut
	mustJSON(t, &list, "list", "--repo", repo)
	if len(list.Worktrees) != 1 || list.Worktrees[0].Name != "w" {
		t.Fatalf("list: %+v", list)
	}
	var out reconcileOut
	mustJSON(t, &out, "reconcile", "--repo", repo)
	if out.Worktrees[0].Reason != "protected" || len(out.Warnings) != 1 || out.Warnings[0].Code != "stale_temp_removed" {
		t.Fatalf("reconcile: %+v", out)
	}
	if _, err := os.Stat(leftover); !os.IsNotExist(err) {
		t.Fatalf("leftover temp file still there: %v", err)
	}
}
