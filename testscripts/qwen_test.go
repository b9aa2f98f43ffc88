package testscripts

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestQwen runs testdata/qwen: workflows whose agents use the real Qwen
// Code (the pinned @qwen-code/qwen-code that scripts/prepare-test-cache
// installs, $STRATOS_TEST_QWEN) over ACP through stratos run, against the
// fake model server's Chat Completions API. Scripts point OPENAI_BASE_URL
// at the fake and assert on its request log.
//
// Script commands (besides withFakeModel's):
//
//	qwen-gone    wait until no process of this script's Qwen Code (its
//	             environment holds STRATOS_TEST_QWEN_RUN=$WORK) is left;
//	             fail naming the survivors
//	qwen-mine <text>
//	             wait until a process of this script runs a command line
//	             containing text
//	qwen-noproc <text>
//	             fail while any process runs a command line containing text
func TestQwen(t *testing.T) {
	bin := os.Getenv("STRATOS_TEST_QWEN")
	if bin == "" {
		t.Fatal("STRATOS_TEST_QWEN is not set: run `eval \"$(scripts/prepare-test-cache)\"`, which installs the pinned @qwen-code/qwen-code and sets it")
	}
	p := withFakeModel(params(t, "qwen"))
	setup := p.Setup
	p.Setup = func(env *testscript.Env) error {
		if err := setup(env); err != nil {
			return err
		}
		env.Setenv("STRATOS_QWEN", bin)
		env.Setenv("OPENAI_API_KEY", "fake-openai-key-000")
		env.Setenv("STRATOS_TEST_QWEN_RUN", env.WorkDir)
		return nil
	}
	p.Cmds["qwen-gone"] = cmdGone("qwen-gone", "STRATOS_TEST_QWEN_RUN")
	p.Cmds["qwen-mine"] = cmdMine("qwen-mine", "STRATOS_TEST_QWEN_RUN")
	p.Cmds["qwen-noproc"] = cmdNoProc("qwen-noproc")
	testscript.Run(t, p)
}
