package testscripts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestClaude runs testdata/claude: workflows whose agents use the real
// claude CLI (the pinned @anthropic-ai/claude-code that scripts/test
// installs, $STRATOS_TEST_CLAUDE) through stratos run, against the fake
// model server. Scripts assert on the fake's request log.
//
// Script commands (besides withFakeModel's):
//
//	claude-noproc <text>   wait until no process started since this test
//	                       binary runs a command line containing text; fail
//	                       naming the survivors
//	claude-proc <text>     wait until such a process runs
//	claude-gone            wait until no process of this script's Claude Code
//	                       (its environment names $WORK/claude-config) is left
//	claude-waitfile <file> <text>
//	                       wait until file contains text
//	claude-mine <text>     wait until a process of this script (its
//	                       environment names $WORK/claude-config) runs a
//	                       command line containing text
//	claude-kill <text>     send SIGKILL to the one process of this script
//	                       whose command line contains text (a crash: no
//	                       cleanup runs in it); fail when none or several do
//
// and lastrun and jsonget (TestRun's), for the run record of a run the
// script crashed and resumed.
//
// They poll with a generous bound: they wait for something to happen, they
// do not measure how long it takes.
func TestClaude(t *testing.T) {
	bin := os.Getenv("STRATOS_TEST_CLAUDE")
	if bin == "" {
		t.Skip("STRATOS_TEST_CLAUDE is not set: no real claude CLI (scripts/test installs the pinned one and sets it)")
	}
	p := withOAuth(withFakeModel(params(t, "claude")))
	setup := p.Setup
	p.Setup = func(env *testscript.Env) error {
		if err := setup(env); err != nil {
			return err
		}
		cfg := filepath.Join(env.WorkDir, "claude-config")
		if err := os.MkdirAll(cfg, 0o755); err != nil {
			return err
		}
		env.Setenv("STRATOS_CLAUDE", bin)
		env.Setenv("CLAUDE_CONFIG_DIR", cfg) // the CLI's own state stays in the script
		env.Setenv("ANTHROPIC_API_KEY", "sk-ant-fake-000")
		env.Setenv("CLAUDE_CODE_MAX_RETRIES", "1")
		return nil
	}
	p.Cmds["claude-noproc"] = cmdNoProc("claude-noproc")
	p.Cmds["claude-proc"] = cmdProc("claude-proc")
	p.Cmds["claude-gone"] = cmdGone("claude-gone", "CLAUDE_CONFIG_DIR")
	p.Cmds["claude-waitfile"] = cmdClaudeWaitFile
	p.Cmds["claude-mine"] = cmdMine("claude-mine", "CLAUDE_CONFIG_DIR")
	p.Cmds["claude-kill"] = cmdKillMine("claude-kill", "CLAUDE_CONFIG_DIR")
	p.Cmds["waitfor"] = cmdWaitFile
	p.Cmds["lastrun"] = cmdRunLastRun
	p.Cmds["jsonget"] = cmdRunJSONGet
	testscript.Run(t, p)
}

func cmdClaudeWaitFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: claude-waitfile <file> <text>")
	}
	deadline := time.Now().Add(processPollBound)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(ts.MkAbs(args[0])); err == nil && strings.Contains(string(b), args[1]) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	ts.Fatalf("%s does not contain %q after %s", args[0], args[1], processPollBound)
}
