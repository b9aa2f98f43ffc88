package host

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/clierr"
)

func TestCheckoutTopIsTheNearestDirectoryWithGit(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	deep := filepath.Join(repo, "packages", "backend")
	checkout := filepath.Join(repo, ".stratos", "worktrees", "brave-otter")
	for _, d := range []string{filepath.Join(repo, ".git"), deep, filepath.Join(checkout, "src")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A linked worktree has a .git file, not a directory.
	if err := os.WriteFile(filepath.Join(checkout, ".git"), []byte("gitdir: ../../../.git/worktrees/brave-otter\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(root, "plain")
	if err := os.MkdirAll(plain, 0o755); err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]string{
		repo:                           repo,
		deep:                           repo,
		deep + "/":                     repo,
		filepath.Join(checkout, "src"): checkout,
		checkout:                       checkout,
		plain:                          plain, // no repository: the directory keys itself
	} {
		if got := checkoutTop(dir); got != want {
			t.Errorf("checkoutTop(%s) = %s, want %s", dir, got, want)
		}
	}
}

func TestWorktreeErrorCodes(t *testing.T) {
	cases := []struct {
		err  error
		code string
	}{
		{clierr.New("path_conflict", "/r/.stratos/worktrees/x exists but is not a worktree of /r"), agentproto.CodeConfiguration},
		{clierr.Usage("not_a_git_repository", "/p is not inside a git repository"), agentproto.CodeConfiguration},
		{clierr.Usage("invalid_name", "worktree name \"a..b\" must not contain \"..\""), agentproto.CodeConfiguration},
		{clierr.New("lock_timeout", "lock busy for 5s"), agentproto.CodeInitialization},
		{clierr.New("tool_not_found", "stratos-worktree not found"), agentproto.CodeInitialization},
		{errors.New("run stratos-worktree: fork failed"), agentproto.CodeInitialization},
	}
	for _, c := range cases {
		t.Run(clierr.As(c.err).Code, func(t *testing.T) {
			err := worktreeError("reviewer", "/r", c.err)
			if agentproto.CodeOf(err) != c.code {
				t.Errorf("%v: code %s, want %s", c.err, agentproto.CodeOf(err), c.code)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, `agent "reviewer": cannot acquire its worktree: `) || !strings.Contains(msg, "workingDirectory /r names the repository") {
				t.Errorf("message %q does not name the agent and the directory", msg)
			}
			var ae *agentproto.Error
			if errors.As(err, &ae) && ae.Details["workingDirectory"] != "/r" {
				t.Errorf("details %v lack the working directory", ae.Details)
			}
		})
	}
}
