package testscripts

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestCodex runs testdata/codex: workflows whose agents use the real Codex
// CLI (the native binary of the pinned @openai/codex that
// scripts/prepare-test-cache installs, $STRATOS_TEST_CODEX) through stratos
// run, against the fake model server's Responses API. Scripts point
// OPENAI_BASE_URL at the fake and assert on its request log.
//
// Script commands (besides withFakeModel's and claude_test.go's):
//
//	codex-gone   wait until no process of this script's Codex (its
//	             environment holds STRATOS_TEST_CODEX_RUN=$WORK) is left;
//	             fail naming the survivors
//	codex-mine <text>
//	             wait until a process of this script runs a command line
//	             containing text
//
// and lastrun (TestRun's), for the run record of a run the script stopped
// and resumed.
func TestCodex(t *testing.T) {
	bin := os.Getenv("STRATOS_TEST_CODEX")
	if bin == "" {
		t.Fatal("STRATOS_TEST_CODEX is not set: run `eval \"$(scripts/prepare-test-cache)\"`, which installs the pinned @openai/codex and sets it")
	}
	p := withOAuth(withFakeModel(params(t, "codex")))
	setup := p.Setup
	p.Setup = func(env *testscript.Env) error {
		if err := setup(env); err != nil {
			return err
		}
		env.Setenv("STRATOS_CODEX", bin)
		env.Setenv("OPENAI_API_KEY", "sk-fake-000")
		env.Setenv("STRATOS_TEST_CODEX_RUN", env.WorkDir)
		// Automatic selection may move on to Claude Code: give it the
		// pinned CLI too, with its state in the script.
		if claude := os.Getenv("STRATOS_TEST_CLAUDE"); claude != "" {
			env.Setenv("STRATOS_CLAUDE", claude)
			env.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(env.WorkDir, "claude-config"))
			env.Setenv("ANTHROPIC_API_KEY", "sk-ant-fake-000")
			env.Setenv("CLAUDE_CODE_MAX_RETRIES", "1")
		}
		return nil
	}
	p.Cmds["codex-gone"] = cmdGone("codex-gone", "STRATOS_TEST_CODEX_RUN")
	p.Cmds["codex-mine"] = cmdMine("codex-mine", "STRATOS_TEST_CODEX_RUN")
	p.Cmds["codex-noproc"] = cmdNoProc("codex-noproc")
	p.Cmds["codex-proc"] = cmdProc("codex-proc")
	p.Cmds["codex-waitfile"] = cmdClaudeWaitFile
	p.Cmds["lastrun"] = cmdRunLastRun
	testscript.Run(t, p)
}
