package testscripts

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/stratoscli/stratos/shared/proctest"
)

// TestAgentWorktree runs testdata/agentworktree: workflows whose agents (on
// the test harness) work in managed git worktrees, run with the real stratos
// run, node, SDK, agent host and stratos-worktree against real git
// repositories made in each script. Git takes its identity and
// configuration from the script's environment only.
//
// Script commands:
//
//	lastrun                  set $RUN to the latest run record directory
//	jsonget KEY VAR          set $VAR to a field of the JSON on the last stdout
//	waitfile <glob> <text>   wait until a file matching glob contains text
//	killhost PID             SIGKILL process PID, which must be a
//	                         `stratos-agent serve`
func TestAgentWorktree(t *testing.T) {
	p := params(t, "agentworktree")
	base := p.Setup
	p.Setup = func(env *testscript.Env) error {
		if err := base(env); err != nil {
			return err
		}
		for k, v := range map[string]string{
			"GIT_AUTHOR_NAME":     "Stratos Test",
			"GIT_AUTHOR_EMAIL":    "test@example.com",
			"GIT_COMMITTER_NAME":  "Stratos Test",
			"GIT_COMMITTER_EMAIL": "test@example.com",
			"GIT_CONFIG_NOSYSTEM": "1",
			"GIT_CONFIG_GLOBAL":   "/dev/null",
			// Workflow npm installs come from the warm cache.
			"npm_config_prefer_offline": "true",
		} {
			env.Setenv(k, v)
		}
		if v := os.Getenv("NODE_EXTRA_CA_CERTS"); v != "" {
			env.Setenv("NODE_EXTRA_CA_CERTS", v)
		}
		return nil
	}
	p.Cmds = map[string]func(*testscript.TestScript, bool, []string){
		"lastrun":  cmdRunLastRun,
		"jsonget":  cmdJSONGet,
		"waitfile": cmdWaitFile,
		"killhost": cmdKillHost,
	}
	testscript.Run(t, p)
}

// cmdKillHost kills an agent host the way a crash or the OOM killer would:
// no cleanup runs in it. It refuses any other process, so a recycled pid
// cannot hit a bystander.
func cmdKillHost(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: killhost PID")
	}
	pid, err := strconv.Atoi(args[0])
	if err != nil || pid <= 0 {
		ts.Fatalf("killhost: %q is not a pid", args[0])
	}
	requireProc(ts)
	argv := proctest.Process{PID: pid}.Argv()
	if len(argv) < 2 || filepath.Base(argv[0]) != "stratos-agent" || argv[1] != "serve" {
		ts.Fatalf("killhost: pid %d runs %q, not stratos-agent serve", pid, strings.Join(argv, " "))
	}
	ts.Check(syscall.Kill(pid, syscall.SIGKILL))
}
