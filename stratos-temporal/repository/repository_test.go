package repository

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/temporalapi"
	"github.com/stratoscli/stratos/stratos-temporal/engine"
)

// run runs git in dir and returns its trimmed output.
func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// project is a bare remote and a clone of it with one commit on main.
func project(t *testing.T) (remote, clone, commit string) {
	t.Helper()
	dir := t.TempDir()
	remote, clone = filepath.Join(dir, "remote.git"), filepath.Join(dir, "clone")
	run(t, dir, "init", "-q", "--bare", "-b", "main", remote)
	run(t, dir, "init", "-q", "-b", "main", clone)
	if err := os.WriteFile(filepath.Join(clone, "README"), []byte("project\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	run(t, clone, "add", "-A")
	run(t, clone, "commit", "-q", "-m", "first")
	run(t, clone, "remote", "add", "origin", remote)
	run(t, clone, "push", "-q", "origin", "main")
	return remote, clone, run(t, clone, "rev-parse", "HEAD")
}

func TestCheckURLRefusesCredentials(t *testing.T) {
	for url, refused := range map[string]bool{
		"https://ada:s3cret@git.example.com/p.git": true,
		"https://ghp_token@github.com/o/p.git":     true,
		"ssh://ada:pw@git.example.com/p.git":       true,
		"https://github.com/o/p.git":               false,
		"ssh://git@github.com/o/p.git":             false,
		"git@github.com:o/p.git":                   false,
		"/srv/git/p.git":                           false,
		"file:///srv/git/p.git":                    false,
	} {
		err := CheckURL(url)
		if (err != nil) != refused {
			t.Errorf("CheckURL(%q) = %v, want refused %v", url, err, refused)
			continue
		}
		var ce *clierr.Error
		if err != nil && (!errors.As(err, &ce) || ce.Code != temporalapi.CodeRepositoryCredentials) {
			t.Errorf("CheckURL(%q) = %v, want code %s", url, err, temporalapi.CodeRepositoryCredentials)
		}
		if err != nil && (strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "ghp_token") || strings.Contains(err.Error(), ":pw@")) {
			t.Errorf("CheckURL(%q) names the credential: %v", url, err)
		}
	}
}

func TestDescribeNeedsARemoteForWorktrees(t *testing.T) {
	ctx := context.Background()
	_, clone, commit := project(t)
	warn := func(string) {}
	run(t, clone, "remote", "remove", "origin")
	repo, err := Describe(ctx, Request{Dir: clone}, warn)
	if err != nil || repo != nil {
		t.Fatalf("no remote, no worktrees: %+v, %v; want nothing to name", repo, err)
	}
	_, err = Describe(ctx, Request{Dir: clone, Worktrees: true}, warn)
	var ce *clierr.Error
	if !errors.As(err, &ce) || ce.Code != temporalapi.CodeRepositoryRemote || !strings.Contains(err.Error(), "no remote origin") {
		t.Fatalf("no remote, worktrees: %v; want %s naming origin", err, temporalapi.CodeRepositoryRemote)
	}
	gone := filepath.Join(t.TempDir(), "gone.git")
	_, err = Describe(ctx, Request{Dir: clone, Remote: gone}, warn)
	if !errors.As(err, &ce) || ce.Code != temporalapi.CodeRepositoryRemote || !strings.Contains(err.Error(), gone) {
		t.Fatalf("--repo that does not answer: %v; want %s naming it", err, temporalapi.CodeRepositoryRemote)
	}
	plain := t.TempDir()
	_, err = Describe(ctx, Request{Dir: plain, Remote: gone}, warn)
	if !errors.As(err, &ce) || ce.Code != temporalapi.CodeRepositoryRemote || !strings.Contains(err.Error(), "--repo "+gone) || !strings.Contains(err.Error(), "is not in a git repository") {
		t.Fatalf("--repo outside a repository: %v; want %s saying so", err, temporalapi.CodeRepositoryRemote)
	}
	if repo, err := Describe(ctx, Request{Dir: plain}, warn); repo != nil || err != nil {
		t.Fatalf("outside a repository, no --repo, no worktrees: %+v, %v; want nothing to name", repo, err)
	}
	remote, sub := filepath.Join(filepath.Dir(clone), "remote.git"), filepath.Join(clone, "sub")
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	repo, err = Describe(ctx, Request{Dir: sub, Remote: remote, Worktrees: true}, warn)
	if err != nil {
		t.Fatal(err)
	}
	if want := (engine.Repository{Remote: remote, Commit: commit, Root: clone, Subdir: "sub"}); *repo != want {
		t.Fatalf("Describe = %+v, want %+v", *repo, want)
	}
}

// checkoutWithWorktree is the run's checkout on a worker and an agent's
// worktree in it on branch stratos/fix, holding a new file.
func checkoutWithWorktree(t *testing.T, remote, commit string) (checkout, worktree string) {
	t.Helper()
	cs := NewCheckouts(t.TempDir())
	dir, err := cs.Get(context.Background(), "run-1", engine.Repository{Remote: remote, Commit: commit, Root: "/elsewhere", Subdir: "."})
	if err != nil {
		t.Fatal(err)
	}
	if head := run(t, dir, "rev-parse", "HEAD"); head != commit {
		t.Fatalf("the checkout's HEAD is %s, want %s", head, commit)
	}
	if url := run(t, dir, "remote", "get-url", "origin"); url != remote {
		t.Fatalf("the checkout's origin is %s, want %s", url, remote)
	}
	worktree = filepath.Join(dir, ".stratos", "worktrees", "fix")
	run(t, dir, "worktree", "add", "-q", "-b", "stratos/fix", worktree)
	if err := os.WriteFile(filepath.Join(worktree, "notes.txt"), []byte("plan\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir, worktree
}

func TestPublishPushesTheAgentsCommit(t *testing.T) {
	remote, clone, commit := project(t)
	_, wt := checkoutWithWorktree(t, remote, commit)
	b, err := Publish(context.Background(), Work{Dir: wt, Branch: "stratos/fix", Remote: remote, RunID: "run-1", Message: "agent work"})
	if err != nil {
		t.Fatal(err)
	}
	if got := run(t, remote, "show", "stratos/fix:notes.txt"); got != "plan" {
		t.Fatalf("the remote's stratos/fix has notes.txt %q, want plan", got)
	}
	if got := run(t, remote, "rev-parse", "stratos/fix"); got != b.Commit {
		t.Fatalf("the remote's stratos/fix is %s, the reply says %s", got, b.Commit)
	}
	// The code's repository sees the branch after See, as after a local
	// execute.
	if err := See(context.Background(), clone, b); err != nil {
		t.Fatal(err)
	}
	if got := run(t, clone, "show", "stratos/fix:notes.txt"); got != "plan" {
		t.Fatalf("the code's stratos/fix has notes.txt %q, want plan", got)
	}
}

func TestPublishRejectedKeepsTheCommitOnTheRemote(t *testing.T) {
	remote, clone, commit := project(t)
	_, wt := checkoutWithWorktree(t, remote, commit)
	// Someone else pushed stratos/fix meanwhile.
	run(t, clone, "commit", "-q", "--allow-empty", "-m", "elsewhere")
	run(t, clone, "push", "-q", "origin", "HEAD:refs/heads/stratos/fix")
	_, err := Publish(context.Background(), Work{Dir: wt, Branch: "stratos/fix", Remote: remote, RunID: "run-1", Message: "agent work"})
	var pe *PublishError
	if !errors.As(err, &pe) || pe.Code != temporalapi.CodePushRejected {
		t.Fatalf("Publish = %v, want %s", err, temporalapi.CodePushRejected)
	}
	if !strings.Contains(err.Error(), remote) || !strings.Contains(err.Error(), "stratos/fix") || !strings.Contains(err.Error(), pe.Ref) {
		t.Fatalf("the error names neither the remote, the branch nor where the commit is: %v", err)
	}
	if got := run(t, remote, "show", pe.Ref+":notes.txt"); got != "plan" {
		t.Fatalf("%s has notes.txt %q, want plan", pe.Ref, got)
	}
	if got := run(t, remote, "log", "-1", "--format=%s", "stratos/fix"); got != "elsewhere" {
		t.Fatalf("the remote's stratos/fix was moved: %s", got)
	}
}

func TestCheckoutOfACommitTheRemoteLacksNamesBoth(t *testing.T) {
	remote, _, _ := project(t)
	missing := strings.Repeat("1", 40)
	_, err := NewCheckouts(t.TempDir()).Get(context.Background(), "run-1", engine.Repository{Remote: remote, Commit: missing, Subdir: "."})
	if err == nil || !strings.Contains(err.Error(), remote) || !strings.Contains(err.Error(), missing) {
		t.Fatalf("Get = %v, want an error naming %s and %s", err, remote, missing)
	}
}

func TestDescribeNamesTheRootAsTheDirectoryDoes(t *testing.T) {
	remote, clone, _ := project(t)
	if err := os.Mkdir(filepath.Join(clone, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(clone, link); err != nil {
		t.Fatal(err)
	}
	repo, err := Describe(context.Background(), Request{Dir: filepath.Join(link, "sub"), Remote: remote}, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	if repo.Root != link || repo.Subdir != "sub" {
		t.Fatalf("Describe through a link = root %s, subdir %s; want %s, sub (the workflow code's paths go through the link)", repo.Root, repo.Subdir, link)
	}
}
