package testscripts

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestDecision runs testdata/decision: workflows whose decisions
// (choice, score, verdict) the real agent host asks of the fake model
// server acting as an Ollama server (its script has an ollama inventory,
// so `fakemodel start` sets $OLLAMA_HOST), through `stratos run` and
// node. Besides fakemodel (see withFakeModel), scripts have:
//
//	lastrun                       sets $RUN to the newest run's directory and $RUNID to its ID
//	jsonget <file> <path> <json>  the value at path in the JSON file equals json
func TestDecision(t *testing.T) {
	p := withFakeModel(params(t, "decision"))
	setup := p.Setup
	p.Setup = func(env *testscript.Env) error {
		if err := setup(env); err != nil {
			return err
		}
		// Workflow builds install zod from the warm npm cache (as TestRun).
		env.Setenv("npm_config_prefer_offline", "true")
		if v := os.Getenv("NODE_EXTRA_CA_CERTS"); v != "" {
			env.Setenv("NODE_EXTRA_CA_CERTS", v)
		}
		return nil
	}
	p.Cmds["lastrun"] = cmdRunLastRun
	p.Cmds["jsonget"] = cmdRunJSONGet
	testscript.Run(t, p)
}
