package command

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/discoverapi"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/shared/contract/worktreeapi"
	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/logging"
	"github.com/stratoscli/stratos/shared/roots"
	"github.com/stratoscli/stratos/stratos-run/preparation"
	"github.com/stratoscli/stratos/stratos-run/runs"
	"github.com/stratoscli/stratos/stratos-run/testcases"
)

func testCommand() *cli.Command {
	return &cli.Command{
		Name:      "test",
		Usage:     "run a workflow's test cases (tests/*.yaml) and report which pass",
		UsageText: "stratos test [<workflow|path>] [--case NAME] [--check] [--keep] [--json]",
		Description: cliapp.Lines(
			"Runs every case of <workflow>/tests/*.yaml (without a workflow: of every workflow of the",
			"project root that has cases), each as a full `stratos run` of its own: its input, its",
			"overrides, its agents switched to the test harness with the case's scripts. A case passes",
			"when the run ends as it expects: the output (exact or included), the error code, the",
			"number of agent calls per configuration or label. Prints a report (with --json, one JSON",
			"document); the workflows' own output goes to stderr. See docs/testing.md.",
			"",
			"Every case and the scripts it gives are checked before any case runs; --check only checks",
			"them (`stratos build` does, for the workflows it builds that have cases). The worktrees",
			"(and branches) a case's agents created are removed when it ends, unless --keep; checkouts",
			"that existed before the case are never touched.",
			"",
			"Exit codes: 0 every case passed; 1 a case failed; 2 bad arguments, unknown workflow,",
			"no cases, or an invalid case or script; 130 interrupted.",
		),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "case", Usage: "run only the case of this name"},
			&cli.BoolFlag{Name: "check", Usage: "check the cases and their scripts, run none"},
			&cli.BoolFlag{Name: "keep", Usage: "keep the worktrees (and branches) the cases' agents created; by default each case's are removed when it ends"},
			cliapp.JSONFlag(),
		},
		Action: testWorkflows,
	}
}

// suite is the cases of one workflow.
type suite struct {
	workflow string
	dir      string
	cases    []testcases.Case
}

// caseResult is one case's line of the report.
type caseResult struct {
	Workflow    string           `json:"workflow"`
	Case        string           `json:"case"`
	File        string           `json:"file"`
	Status      string           `json:"status"` // passed | failed
	Failures    []string         `json:"failures"`
	ExecutionID string           `json:"executionId,omitempty"`
	DurationMs  int64            `json:"durationMs"`
	Counts      testcases.Counts `json:"counts"`
	// warnings are the worktree tool's warnings in the case's run record,
	// printed once for the suite (worktreeWarnings).
	warnings []worktreeapi.Diagnostic
}

// testReport is the --json document.
type testReport struct {
	Passed int          `json:"passed"`
	Failed int          `json:"failed"`
	Cases  []caseResult `json:"cases"`
}

func testWorkflows(ctx context.Context, cmd *cli.Command) error {
	if err := cliapp.ExactArgs(cmd, 0, 1, "[<workflow|path>] [--case NAME] [--check] [--keep] [--json]"); err != nil {
		return err
	}
	// An empty name, from a shell variable that was never set (--case
	// "$CASE"), would read as none given and run every case.
	if cmd.IsSet("case") && cmd.String("case") == "" {
		return clierr.Usage(errcode.CodeUsage, "--case needs a case's name: an empty one names no case (leave --case out to run every case)")
	}
	if cmd.Args().Len() == 1 && cmd.Args().First() == "" {
		return clierr.Usage(errcode.CodeUsage, "the workflow named is empty: give a workflow's name or path, or none for every workflow of the project root")
	}
	root := cmd.Root()
	cwd, err := os.Getwd()
	if err != nil {
		return clierr.New(discoverapi.CodeCwdUnreadable, "read the working directory: %v", err).Wrap(err)
	}
	suites, misnamed, err := findSuites(cwd, cmd.Args().First(), cmd.String("case"))
	if err != nil {
		return err
	}
	for _, m := range misnamed {
		logging.New("stratos", root.ErrWriter).Warn(m + " is not read as a case file: case files end in .yaml (rename it); files the cases use belong in a subdirectory of tests/")
	}
	if err := checkSuites(ctx, cwd, suites, root.ErrWriter); err != nil {
		return err
	}
	if cmd.Bool("check") {
		return reportChecked(cmd, suites)
	}
	log := logging.New("stratos", root.ErrWriter)
	var report testReport
	var warned worktreeWarnings
	for _, s := range suites {
		for _, c := range s.cases {
			res, err := runCase(ctx, cwd, s, c, cmd.Bool("keep"), log, root.ErrWriter)
			if err != nil {
				return err
			}
			if res.Status == "passed" {
				report.Passed++
			} else {
				report.Failed++
			}
			report.Cases = append(report.Cases, res)
			warned.add(s.workflow+" / "+c.Name, res.warnings)
		}
	}
	warned.report(log)
	if cmd.Bool("json") {
		if err := clierr.PrintJSON(root.Writer, report); err != nil {
			return err
		}
	} else {
		printReport(root.Writer, report)
	}
	if report.Failed > 0 {
		return cliapp.Silent(clierr.ExitFailed)
	}
	return nil
}

// findSuites loads the cases of the named workflow, or of every workflow of
// the project root; with only, just the case of that name.
//
// It also returns the files of those workflows' tests/ that end in .yml,
// which are not read as case files (testcases.Misnamed), by path.
func findSuites(cwd, arg, only string) ([]suite, []string, error) {
	var found []suite
	if arg != "" {
		t, err := preparation.Resolve(cwd, arg)
		if err != nil {
			return nil, nil, err
		}
		found = []suite{{workflow: t.Name(), dir: t.Workflow.Dir}}
	} else {
		rs, err := roots.Resolve(cwd, roots.OnlyProject)
		if err != nil {
			return nil, nil, clierr.New(discoverapi.CodeRootUnreadable, "%v", err).Wrap(err)
		}
		cat, err := discovery.Load(rs)
		if err != nil {
			return nil, nil, clierr.New(discoverapi.CodeRootUnreadable, "%v", err).Wrap(err)
		}
		for _, w := range cat.Workflows() {
			found = append(found, suite{workflow: w.Manifest.Name, dir: w.Dir})
		}
	}
	var out []suite
	var misnamed []string
	for _, s := range found {
		for _, m := range testcases.Misnamed(s.dir) {
			misnamed = append(misnamed, filepath.Join(s.dir, m))
		}
		cases, err := testcases.Load(s.dir)
		var invalid *testcases.Error
		if errors.As(err, &invalid) {
			return nil, nil, invalidCases(s.dir, []runapi.TestCaseProblem{invalid.TestCaseProblem})
		}
		if err != nil {
			return nil, nil, clierr.Usage(runapi.CodeTestCasesInvalid, "%s: %v", s.dir, err).Wrap(err)
		}
		if only != "" {
			cases = named(cases, only)
		}
		if len(cases) > 0 {
			s.cases = cases
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		what := "no workflow of the project root has test cases (" + testcases.Dir + "/*.yaml)"
		if arg != "" {
			what = fmt.Sprintf("%s has no test cases (%s/*.yaml)", found[0].dir, testcases.Dir)
		}
		if only != "" {
			what = fmt.Sprintf("no test case is named %q", only)
		}
		if len(misnamed) > 0 {
			what += fmt.Sprintf("; not read: %s (case files end in .yaml)", strings.Join(misnamed, ", "))
		}
		return nil, nil, clierr.Usage(runapi.CodeNoTestCases, "%s; docs/testing.md describes the format", what)
	}
	return out, misnamed, nil
}

func named(cases []testcases.Case, name string) []testcases.Case {
	for _, c := range cases {
		if c.Name == name {
			return []testcases.Case{c}
		}
	}
	return nil
}

// runCase runs one case as a full run of its own and judges it. Only an
// interruption (or a run record that cannot be written) stops the suite.
func runCase(ctx context.Context, cwd string, s suite, c testcases.Case, keep bool, log hclog.Logger, stderr io.Writer) (caseResult, error) {
	res := caseResult{Workflow: s.workflow, Case: c.Name, File: c.File, Status: "failed", Failures: []string{}}
	start := time.Now()
	defer func() { res.DurationMs = time.Since(start).Milliseconds() }()
	x, problem := prepareCase(cwd, s, c, log, stderr)
	if problem != "" {
		res.Failures = append(res.Failures, problem)
		return res, nil
	}
	// Launched while the case's run starts, as `stratos run` launches it.
	x.validator = launchValidator()
	defer x.validator.close()
	if err := x.begin(); err != nil {
		return res, err
	}
	res.ExecutionID = x.id
	output, runErr := x.run(ctx)
	if runErr != nil && runErr.Exit == clierr.ExitInterrupted {
		return res, x.describe(runErr)
	}
	events := filepath.Join(x.record.Dir(), runs.EventsFile)
	counts, err := testcases.Count(events)
	if err != nil {
		res.Failures = append(res.Failures, fmt.Sprintf("read the run record: %v", err))
	}
	if res.warnings, err = testcases.WorktreeWarnings(events); err != nil {
		res.Failures = append(res.Failures, fmt.Sprintf("read the run record: %v", err))
	}
	if !keep {
		created, err := testcases.CreatedWorktrees(events)
		if err != nil {
			res.Failures = append(res.Failures, fmt.Sprintf("read the run record: %v", err))
		}
		removeCreatedWorktrees(ctx, created, log)
	}
	res.Counts = counts
	obs := testcases.Observed{Output: output, Calls: counts.Calls, Served: counts.Served}
	if runErr != nil {
		obs.ErrorCodes, obs.ErrorMessage = errorCodes(runErr), runErr.Message
	}
	res.Failures = append(res.Failures, c.Expect.Judge(obs)...)
	res.Failures = append(res.Failures, c.RealHarnessFailures(counts)...)
	if len(res.Failures) == 0 {
		res.Status = "passed"
	}
	res.DurationMs = time.Since(start).Milliseconds()
	return res, nil
}

// prepareCase resolves the workflow afresh (an earlier case may have built
// it) and the case's input and overrides; a problem fails the case.
func prepareCase(cwd string, s suite, c testcases.Case, log hclog.Logger, stderr io.Writer) (*execution, string) {
	target, err := preparation.Resolve(cwd, s.dir)
	if err != nil {
		return nil, err.Error()
	}
	overrides, problem := caseOverrides(target, c)
	if problem != "" {
		return nil, "invalid case: " + problem
	}
	declareChildAgents(target)
	limits, problem := caseBudget(target, c)
	if problem != "" {
		return nil, "invalid case: " + problem
	}
	input := c.Input
	if len(input) == 0 || string(input) == "null" {
		input = json.RawMessage("{}")
	}
	// The run's agent host knows it serves this case: unless the case
	// allows real harnesses, it refuses every agent not on the test
	// harness (those the case's overrides do not reach included), and it
	// does not print the warnings of the case's worktrees.
	mark, _ := json.Marshal(agentproto.TestCase{Name: s.workflow + " / " + c.Name, File: c.File, AllowRealHarness: c.AllowRealHarness}) // strings and a bool
	env := []string{agentproto.TestCaseEnv + "=" + string(mark)}
	return &execution{target: target, cwd: cwd, input: input, overrides: overrides, budget: limits, log: log, stderr: stderr, json: true, env: env}, ""
}

// errorCodes are a failure's code and the codes of its causes.
func errorCodes(err *clierr.Error) []string {
	codes := []string{err.Code}
	links, _ := err.Details["cause"].([]errorLink)
	for _, l := range links {
		if l.Code != "" && l.Code != err.Code {
			codes = append(codes, l.Code)
		}
	}
	return codes
}

func printReport(w io.Writer, r testReport) {
	for _, c := range r.Cases {
		fmt.Fprintf(w, "%s  %s / %s  (%s, %dms)\n", strings.ToUpper(c.Status[:4]), c.Workflow, c.Case, c.File, c.DurationMs)
		for _, f := range c.Failures {
			fmt.Fprintf(w, "      %s\n", f)
		}
	}
	fmt.Fprintf(w, "%d passed, %d failed\n", r.Passed, r.Failed)
}

// reportChecked answers --check once every case is valid.
func reportChecked(cmd *cli.Command, suites []suite) error {
	var checked runapi.TestCheck
	for _, s := range suites {
		checked.Cases += len(s.cases)
	}
	if cmd.Bool("json") {
		return clierr.PrintJSON(cmd.Root().Writer, checked)
	}
	_, err := fmt.Fprintf(cmd.Root().Writer, "%d valid test cases\n", checked.Cases)
	return err
}
