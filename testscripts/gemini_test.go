package testscripts

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestGemini runs testdata/gemini: workflows whose agents use the real
// Gemini CLI (the pinned @google/gemini-cli that scripts/prepare-test-cache
// installs, $STRATOS_TEST_GEMINI) over ACP through stratos run, against the
// fake model server's Gemini API. Scripts point GOOGLE_GEMINI_BASE_URL at
// the fake and assert on its request log.
//
// Script commands (besides withFakeModel's):
//
//	gemini-gone  wait until no process of this script's Gemini CLI (its
//	             environment holds STRATOS_TEST_GEMINI_RUN=$WORK) is left;
//	             fail naming the survivors
//	gemini-mine <text>
//	             wait until a process of this script runs a command line
//	             containing text
//	gemini-noproc <text>
//	             fail while any process runs a command line containing text
//
// and lastrun (TestRun's), for the run record of a run the script stopped
// and resumed.
func TestGemini(t *testing.T) {
	bin := os.Getenv("STRATOS_TEST_GEMINI")
	if bin == "" {
		t.Fatal("STRATOS_TEST_GEMINI is not set: run `eval \"$(scripts/prepare-test-cache)\"`, which installs the pinned @google/gemini-cli and sets it")
	}
	p := withFakeModel(params(t, "gemini"))
	setup := p.Setup
	p.Setup = func(env *testscript.Env) error {
		if err := setup(env); err != nil {
			return err
		}
		env.Setenv("STRATOS_GEMINI", bin)
		env.Setenv("GEMINI_API_KEY", "fake-gemini-key-000")
		env.Setenv("STRATOS_TEST_GEMINI_RUN", env.WorkDir)
		return nil
	}
	p.Cmds["gemini-gone"] = cmdGone("gemini-gone", "STRATOS_TEST_GEMINI_RUN")
	p.Cmds["gemini-mine"] = cmdMine("gemini-mine", "STRATOS_TEST_GEMINI_RUN")
	p.Cmds["gemini-noproc"] = cmdNoProc("gemini-noproc")
	p.Cmds["lastrun"] = cmdRunLastRun
	testscript.Run(t, p)
}
