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
//	claude-noproc <text>   wait until no process's command line contains
//	                       text; fail naming the survivors
//	claude-proc <text>     wait until some process's command line contains it
//	claude-gone            wait until no process of this script's Claude Code
//	                       (its environment names $WORK/claude-config) is left
//	claude-waitfile <file> <text>
//	                       wait until file contains text
//	claude-mine <text>     wait until a process of this script (its
//	                       environment names $WORK/claude-config) runs a
//	                       command line containing text
//
// Both poll with a generous bound: they wait for something to happen, they
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
	p.Cmds["claude-noproc"] = cmdClaudeNoProc
	p.Cmds["claude-proc"] = cmdClaudeProc
	p.Cmds["claude-gone"] = cmdClaudeGone
	p.Cmds["claude-waitfile"] = cmdClaudeWaitFile
	p.Cmds["claude-mine"] = cmdClaudeMine
	p.Cmds["waitfor"] = cmdWaitFile
	testscript.Run(t, p)
}

func cmdClaudeNoProc(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: claude-noproc <text>")
	}
	deadline := time.Now().Add(claudePollBound)
	var pids []string
	for time.Now().Before(deadline) {
		if pids = processesRunning(args[0]); len(pids) == 0 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	ts.Fatalf("processes still running %q after %s: pids %v", args[0], claudePollBound, pids)
}

func cmdClaudeProc(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: claude-proc <text>")
	}
	deadline := time.Now().Add(claudePollBound)
	for time.Now().Before(deadline) {
		if len(processesRunning(args[0])) > 0 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	ts.Fatalf("no process runs %q after %s", args[0], claudePollBound)
}

// processesRunning lists the pids whose command line contains text.
func processesRunning(text string) []string {
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(strings.ReplaceAll(string(b), "\x00", " "), text) {
			out = append(out, e.Name())
		}
	}
	return out
}

// claudePollBound bounds the waits of claude-proc and claude-noproc.
const claudePollBound = 60 * time.Second

func cmdClaudeGone(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: claude-gone")
	}
	kv := "CLAUDE_CONFIG_DIR=" + ts.Getenv("CLAUDE_CONFIG_DIR")
	deadline := time.Now().Add(claudePollBound)
	var pids []string
	for time.Now().Before(deadline) {
		if pids = processesWithEnv(kv); len(pids) == 0 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	ts.Fatalf("processes with %s still running after %s: pids %v", kv, claudePollBound, pids)
}

// processesWithEnv lists the pids whose environment holds kv: the CLI and
// every process it started (they inherit it).
func processesWithEnv(kv string) []string {
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil {
			continue
		}
		for _, v := range strings.Split(string(b), "\x00") {
			if v == kv {
				out = append(out, e.Name())
				break
			}
		}
	}
	return out
}

func cmdClaudeWaitFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: claude-waitfile <file> <text>")
	}
	deadline := time.Now().Add(claudePollBound)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(ts.MkAbs(args[0])); err == nil && strings.Contains(string(b), args[1]) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	ts.Fatalf("%s does not contain %q after %s", args[0], args[1], claudePollBound)
}

func cmdClaudeMine(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: claude-mine <text>")
	}
	kv := "CLAUDE_CONFIG_DIR=" + ts.Getenv("CLAUDE_CONFIG_DIR")
	deadline := time.Now().Add(claudePollBound)
	for time.Now().Before(deadline) {
		for _, pid := range processesWithEnv(kv) {
			b, err := os.ReadFile(filepath.Join("/proc", pid, "cmdline"))
			if err == nil && strings.Contains(strings.ReplaceAll(string(b), "\x00", " "), args[0]) {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	ts.Fatalf("no process of this script runs %q after %s", args[0], claudePollBound)
}
