package testscripts

import (
	"os"

	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestOpenCode runs testdata/opencode: workflows whose agents use the real
// OpenCode server (the binary of the pinned opencode-ai that
// scripts/prepare-test-cache installs, $STRATOS_TEST_OPENCODE) through
// stratos run, against the fake model server. Scripts point
// OPENAI_BASE_URL / ANTHROPIC_BASE_URL at the fake and assert on its
// request log.
//
// Script commands (besides withFakeModel's):
//
//	opencode-gone   wait until no process of this script's OpenCode (its
//	                environment holds STRATOS_TEST_OPENCODE_RUN=$WORK) is
//	                left; fail naming the survivors
//	opencode-mine <text>
//	                wait until a process of this script runs a command
//	                line containing text
//	opencode-noproc <text>
//	                claude-noproc (claude_test.go)
//
// and lastrun (TestRun's), for the run record of a run the script stopped
// and resumed.
func TestOpenCode(t *testing.T) {
	bin := os.Getenv("STRATOS_TEST_OPENCODE")
	if bin == "" {
		t.Fatal("STRATOS_TEST_OPENCODE is not set: run `eval \"$(scripts/prepare-test-cache)\"`, which installs the pinned opencode-ai and sets it")
	}
	p := withOAuth(withFakeModel(params(t, "opencode")))
	setup := p.Setup
	p.Setup = func(env *testscript.Env) error {
		if err := setup(env); err != nil {
			return err
		}
		env.Setenv("STRATOS_OPENCODE", bin)
		env.Setenv("OPENAI_API_KEY", "sk-fake-000")
		env.Setenv("ANTHROPIC_API_KEY", "sk-ant-fake-000")
		env.Setenv("STRATOS_TEST_OPENCODE_RUN", env.WorkDir)
		return nil
	}
	p.Cmds["opencode-gone"] = cmdGone("opencode-gone", "STRATOS_TEST_OPENCODE_RUN")
	p.Cmds["opencode-mine"] = cmdMine("opencode-mine", "STRATOS_TEST_OPENCODE_RUN")
	p.Cmds["opencode-noproc"] = cmdNoProc("opencode-noproc")
	p.Cmds["lastrun"] = cmdRunLastRun
	testscript.Run(t, p)
}
