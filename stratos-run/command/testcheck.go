package command

import (
	"context"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/agentapi"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/stratos-run/invocation"
	"github.com/stratoscli/stratos/stratos-run/preparation"
	"github.com/stratoscli/stratos/stratos-run/testcases"
)

// checkSuites validates every case before any runs, as the agent host
// would check its overrides and scripts when the run creates the agent:
// a typo in a script the last case uses fails at once, every problem
// listed with its file, line, case and agent.
func checkSuites(ctx context.Context, cwd string, suites []suite, stderr io.Writer) error {
	var problems []string
	for _, s := range suites {
		target, err := preparation.Resolve(cwd, s.dir)
		if err != nil {
			return err
		}
		for _, c := range s.cases {
			problems = append(problems, checkCase(ctx, target, c, stderr)...)
			if ctx.Err() != nil {
				ce := clierr.New(runapi.CodeTestCasesInvalid, "interrupted while checking the test cases").Wrap(ctx.Err())
				ce.Exit = clierr.ExitInterrupted
				return ce
			}
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return clierr.Usage(runapi.CodeTestCasesInvalid, "invalid test cases (none ran):\n  %s", strings.Join(problems, "\n  ")).
		WithDetails(map[string]any{"problems": problems})
}

// checkCase returns the problems of one case, each naming where it is.
func checkCase(ctx context.Context, target *preparation.Target, c testcases.Case, stderr io.Writer) []string {
	overrides, problem := caseOverrides(target, c)
	if problem != "" {
		return []string{c.Where() + ": " + problem}
	}
	err := invocation.CheckAgentSettings(ctx, overrides, target.Workflow.Dir, stderr)
	if err == nil {
		return nil
	}
	ce := clierr.As(err)
	found, ok := ce.Details["problems"].([]agentapi.ConfigProblem)
	if !ok {
		return []string{c.Where() + ": " + ce.Message}
	}
	var out []string
	for _, p := range found {
		t := problemTarget(c, p.Path)
		out = append(out, c.ScriptWhere(t)+": "+problemField(p.Path, t)+p.Message)
	}
	return out
}

// caseOverrides is the --overrides document of the case's run, or why the
// case is invalid.
func caseOverrides(target *preparation.Target, c testcases.Case) ([]byte, string) {
	agents := target.Workflow.Manifest.Sections["agents"]
	declared, _ := agents.(map[string]any)
	overrides, err := c.RunOverrides(target.Workflow.Dir, declared)
	if err != nil {
		return nil, err.Error()
	}
	if problem := invocation.OverridesProblem(overrides); problem != "" {
		return nil, "overrides: " + problem
	}
	if err := invocation.CheckOverrideTargets(overrides, target.Name(), agents); err != nil {
		return nil, strings.TrimPrefix(clierr.As(err).Message, "--overrides: ")
	}
	return overrides, ""
}

const overridesAgents = "overrides.agents."

// problemTarget is the scripts (or overrides) target a validate-config
// problem path names: "overrides.agents.<target>[.field]".
func problemTarget(c testcases.Case, path string) string {
	rest := strings.TrimPrefix(path, overridesAgents)
	best := ""
	for _, t := range slices.Sorted(maps.Keys(c.Scripts)) {
		if (rest == t || strings.HasPrefix(rest, t+".")) && len(t) > len(best) {
			best = t
		}
	}
	if best == "" {
		best, _, _ = strings.Cut(rest, ".")
	}
	return best
}

// problemField is the field of the target's entry a problem's path names,
// when it is not the test script (which the message names already).
func problemField(path, target string) string {
	field := strings.TrimPrefix(strings.TrimPrefix(path, overridesAgents+target), ".")
	if field == "" || field == "test" {
		return ""
	}
	return field + ": "
}
