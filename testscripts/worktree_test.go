package testscripts

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestWorktree runs testdata/worktree: stratos-worktree against real git
// repositories made in each script. Git takes its identity and configuration
// from the script's environment only, never from the user's.
//
// Extra commands:
//
//	jsonget KEY VAR        set $VAR to a field of the JSON on the last stdout
//	                       (KEY is a dot path: worktrees.0.name)
//	sleeper VAR            start a `sleep` process and put its pid in $VAR
//	killsleeper VAR        SIGKILL the sleeper whose pid is in $VAR and reap it
//	exitcode N PROG ARGS   run PROG and require exit status N
func TestWorktree(t *testing.T) {
	p := params(t, "worktree")
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
		} {
			env.Setenv(k, v)
		}
		return nil
	}
	p.Cmds = map[string]func(*testscript.TestScript, bool, []string){
		"jsonget":     cmdJSONGet,
		"sleeper":     cmdSleeper,
		"killsleeper": cmdKillSleeper,
		"exitcode":    exitCode,
	}
	testscript.Run(t, p)
}

func cmdJSONGet(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: jsonget KEY VAR")
	}
	var v any
	ts.Check(json.Unmarshal([]byte(ts.ReadFile("stdout")), &v))
	for _, part := range strings.Split(args[0], ".") {
		switch node := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = node[part]; !ok {
				ts.Fatalf("jsonget: no key %q in %s", part, args[0])
			}
		case []any:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(node) {
				ts.Fatalf("jsonget: bad index %q in %s", part, args[0])
			}
			v = node[i]
		default:
			ts.Fatalf("jsonget: %s: %q is not inside an object or list", args[0], part)
		}
	}
	s, ok := v.(string)
	if !ok {
		b, _ := json.Marshal(v)
		s = string(b)
	}
	ts.Setenv(args[1], s)
}

// cmdSleeper starts a process that stands for an agent host: a real,
// separate process whose pid and start time can be registered as an owner.
func cmdSleeper(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: sleeper VAR")
	}
	cmd := exec.Command("sleep", "300")
	ts.Check(cmd.Start())
	ts.Defer(func() { _ = cmd.Process.Kill(); _, _ = cmd.Process.Wait() })
	ts.Setenv(args[0], strconv.Itoa(cmd.Process.Pid))
}

func cmdKillSleeper(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: killsleeper VAR")
	}
	pid, err := strconv.Atoi(ts.Getenv(args[0]))
	ts.Check(err)
	// The sleeper is this process's child: reap it after SIGKILL so that it
	// is gone, not a zombie.
	p, err := os.FindProcess(pid)
	ts.Check(err)
	ts.Check(p.Signal(syscall.SIGKILL))
	_, _ = p.Wait()
	fmt.Fprintf(ts.Stdout(), "killed %d\n", pid)
}
