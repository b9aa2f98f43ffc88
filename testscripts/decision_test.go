package testscripts

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
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
	testscript.Run(t, decisionParams(t, params(t, "decision")))
}

func decisionParams(t *testing.T, p testscript.Params) testscript.Params {
	p = withFakeModel(p)
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
	return p
}

// docExample is a fenced block of docs/decision.md whose first line names
// the file it is ("# .stratos/workflows/route/workflow.yaml").
var docExample = regexp.MustCompile("(?s)```(?:yaml|ts)\n(?:#|//) (\\.stratos/workflows/[^\n]+)\n(.*?)```")

// TestDecisionDocExamples runs every example workflow of docs/decision.md
// as the page shows it, against the fake model server as Ollama: the
// page promises they run as they stand.
func TestDecisionDocExamples(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("..", "docs", "decision.md"))
	if err != nil {
		t.Fatal(err)
	}
	var archive strings.Builder
	archive.WriteString(decisionDocScript)
	files := map[string]bool{}
	for _, m := range docExample.FindAllSubmatch(page, -1) {
		name := string(m[1])
		files[name] = true
		archive.WriteString("-- project/" + name + " --\n" + string(m[2]))
	}
	for _, want := range []string{"route", "fix-until-green", "best-patch"} {
		for _, f := range []string{"workflow.yaml", "workflow.ts"} {
			if name := ".stratos/workflows/" + want + "/" + f; !files[name] {
				t.Fatalf("docs/decision.md has no example %s (a ```yaml or ```ts block whose first line names it)", name)
			}
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "examples.txtar"), []byte(archive.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	p := params(t, "decision")
	p.Dir = dir
	testscript.Run(t, decisionParams(t, p))
}

// decisionDocScript runs the page's examples; the fake answers each
// example's questions by a marker of its prompt.
const decisionDocScript = `cd project
fakemodel start ../fake.json addr ../log.jsonl

exec stratos run route --input '{"report":"Saving a profile returns HTTP 500."}'
stdout '"team": "backend"'
stdout '"reply": "backend looks at it"'

exec stratos run fix-until-green --input '{"task":"Fix the parser."}'
stdout '"green": true'
stdout '"rounds": 2'

exec stratos run best-patch --input '{"issue":"an off-by-one in the pager"}'
stdout '"best": "patch by b"'
stdout '"scores": \[\s*6,\s*9,\s*4\s*\]'

fakemodel stop

-- fake.json --
{"ollama": {"models": [{"name": "qwen3:8b"}]},
 "turns": [
  {"match": {"marker": "Which team should handle"}, "reply": [{"structuredOutput": {"answer": "backend"}}]},
  {"match": {"marker": "FAIL: TestParse"}, "reply": [{"structuredOutput": {"answer": "no"}}]},
  {"match": {"marker": "all tests passed"}, "reply": [{"structuredOutput": {"answer": "yes"}}]},
  {"match": {"marker": "patch by a"}, "times": 3, "reply": [{"structuredOutput": {"answer": 6}}]},
  {"match": {"marker": "patch by b"}, "times": 3, "reply": [{"structuredOutput": {"answer": 9}}]},
  {"match": {"marker": "patch by c"}, "times": 3, "reply": [{"structuredOutput": {"answer": 4}}]}
 ]}
`
