package testscripts

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestOllama runs testdata/ollama: agents with provider ollama on the real
// Codex CLI ($STRATOS_TEST_CODEX) against the fake model server acting as
// an Ollama server (its script has an ollama inventory, so `fakemodel
// start` sets $OLLAMA_HOST), and `stratos provider status ollama`. An
// OpenAI key is set so that scripts can show it is never used.
func TestOllama(t *testing.T) {
	bin := os.Getenv("STRATOS_TEST_CODEX")
	if bin == "" {
		t.Fatal("STRATOS_TEST_CODEX is not set: run `eval \"$(scripts/prepare-test-cache)\"`, which installs the pinned @openai/codex and sets it")
	}
	p := withFakeModel(params(t, "ollama"))
	setup := p.Setup
	p.Setup = func(env *testscript.Env) error {
		if err := setup(env); err != nil {
			return err
		}
		env.Setenv("STRATOS_CODEX", bin)
		env.Setenv("OPENAI_API_KEY", "sk-fake-000")
		env.Setenv("STRATOS_TEST_CODEX_RUN", env.WorkDir)
		return nil
	}
	p.Cmds["codex-gone"] = cmdGone("codex-gone", "STRATOS_TEST_CODEX_RUN")
	testscript.Run(t, p)
}
