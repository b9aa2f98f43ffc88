package command

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/agentapi"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/manifest"
	"github.com/stratoscli/stratos/stratos-run/budget"
	"github.com/stratoscli/stratos/stratos-run/invocation"
	"github.com/stratoscli/stratos/stratos-run/preparation"
	"github.com/stratoscli/stratos/stratos-run/testcases"
)

// checkSuites validates every case before any runs, as the agent host
// would check its overrides and scripts when the run creates the agent:
// a typo in a script the last case uses fails at once, every problem of
// the first workflow that has any listed with its file, line, case and
// agent.
func checkSuites(ctx context.Context, cwd string, suites []suite, stderr io.Writer) error {
	for _, s := range suites {
		target, err := preparation.Resolve(cwd, s.dir)
		if err != nil {
			return err
		}
		problems, err := checkCases(ctx, target, s.cases, stderr)
		if err != nil {
			return err
		}
		if len(problems) > 0 {
			return invalidCases(s.dir, problems)
		}
	}
	return nil
}

// invalidCases is the error that lists the problems of a workflow's cases.
func invalidCases(dir string, problems []runapi.TestCaseProblem) error {
	lines := make([]string, len(problems))
	for i, p := range problems {
		lines[i] = p.String()
	}
	return clierr.Usage(runapi.CodeTestCasesInvalid, "invalid test cases of %s:\n  %s", dir, strings.Join(lines, "\n  ")).
		WithDetails(map[string]any{"problems": problems})
}

// checkCases returns the problems of one workflow's cases, in case order.
// The agents entries and decision overrides (where the case's decisions
// go) of every case's overrides are checked together, each distinct entry
// once: cases share their scripts, and a check is a process of its own.
func checkCases(ctx context.Context, target *preparation.Target, cases []testcases.Case, stderr io.Writer) ([]runapi.TestCaseProblem, error) {
	perCase := make([][]runapi.TestCaseProblem, len(cases))
	var batches []*entryBatch
	for i, c := range cases {
		overrides, problem := caseOverrides(target, c)
		if problem == "" {
			_, problem = caseBudget(target, c)
		}
		if problem != "" {
			perCase[i] = []runapi.TestCaseProblem{c.Problem("%s", problem)}
			continue
		}
		var doc struct {
			Agents   map[string]json.RawMessage `json:"agents"`
			Decision json.RawMessage            `json:"decision"`
		}
		_ = json.Unmarshal(overrides, &doc) // RunOverrides wrote it
		for _, t := range slices.Sorted(maps.Keys(doc.Agents)) {
			batches = addEntry(batches, t, doc.Agents[t], i)
		}
		if len(doc.Decision) > 0 {
			batches = addDecision(batches, doc.Decision, i)
		}
	}
	for _, b := range batches {
		err := invocation.CheckSettings(ctx, b.overrides(), target.Workflow.Dir, stderr)
		if ctx.Err() != nil {
			ce := clierr.New(runapi.CodeTestCasesInvalid, "interrupted while checking the test cases").Wrap(ctx.Err())
			ce.Exit = clierr.ExitInterrupted
			return nil, ce
		}
		if err == nil {
			continue
		}
		ce := clierr.As(err)
		found, ok := ce.Details["problems"].([]agentapi.ConfigProblem)
		if !ok {
			return nil, err
		}
		for _, p := range found {
			if strings.HasPrefix(p.Path, overridesDecision) {
				for _, i := range b.decisionUsers {
					perCase[i] = append(perCase[i], cases[i].DecisionProblem(p.Path, p.Message))
				}
				continue
			}
			t := b.target(p.Path)
			if t == "" {
				return nil, err
			}
			for _, i := range b.users[t] {
				perCase[i] = append(perCase[i], cases[i].ScriptProblem(t, problemField(p.Path, t)+p.Message))
			}
		}
	}
	var out []runapi.TestCaseProblem
	for _, p := range perCase {
		out = append(out, p...)
	}
	return out, nil
}

// entryBatch is one overrides document to check: at most one agents
// entry per target and one decision layer, each with the cases that use
// it.
type entryBatch struct {
	agents        map[string]json.RawMessage
	users         map[string][]int
	decision      json.RawMessage
	decisionUsers []int
}

// addEntry puts the case's entry for target into the first batch that
// holds the same entry or none for target.
func addEntry(batches []*entryBatch, target string, entry json.RawMessage, user int) []*entryBatch {
	for _, b := range batches {
		held, ok := b.agents[target]
		if !ok || bytes.Equal(held, entry) {
			b.agents[target] = entry
			b.users[target] = append(b.users[target], user)
			return batches
		}
	}
	b := &entryBatch{agents: map[string]json.RawMessage{target: entry}, users: map[string][]int{target: {user}}}
	return append(batches, b)
}

// addDecision puts the case's decision overrides into the first batch
// that holds the same ones or none.
func addDecision(batches []*entryBatch, layer json.RawMessage, user int) []*entryBatch {
	for _, b := range batches {
		if b.decision == nil || bytes.Equal(b.decision, layer) {
			b.decision = layer
			b.decisionUsers = append(b.decisionUsers, user)
			return batches
		}
	}
	b := &entryBatch{agents: map[string]json.RawMessage{}, users: map[string][]int{}, decision: layer, decisionUsers: []int{user}}
	return append(batches, b)
}

func (b *entryBatch) overrides() json.RawMessage {
	doc := map[string]any{"agents": b.agents}
	if b.decision != nil {
		doc["decision"] = b.decision
	}
	raw, _ := json.Marshal(doc)
	return raw
}

// overridesDecision starts the paths of the agent host's problems with
// the decision overrides.
const overridesDecision = "overrides.decision"

// caseBudget is the budget of the case's run: workflow.yaml's, with the
// case's limits instead, as stratos run's flags give them.
func caseBudget(target *preparation.Target, c testcases.Case) (budget.Limits, string) {
	w := target.Workflow
	limits, err := budget.FromManifest(w.Manifest.Sections["budget"], filepath.Join(w.Dir, manifest.FileName))
	if err != nil {
		return limits, clierr.As(err).Message
	}
	if c.Budget == nil {
		return limits, ""
	}
	limits, err = limits.Override(budget.Flags{USD: c.Budget.USD, Tokens: c.Budget.Tokens})
	if err != nil {
		return limits, clierr.As(err).Message
	}
	return limits, ""
}

const overridesAgents = "overrides.agents."

// target is the entry a validate-config problem path names:
// "overrides.agents.<target>[.field]", targets holding dots included.
func (b *entryBatch) target(path string) string {
	rest := strings.TrimPrefix(path, overridesAgents)
	best := ""
	for t := range b.agents {
		if (rest == t || strings.HasPrefix(rest, t+".")) && len(t) > len(best) {
			best = t
		}
	}
	return best
}

// caseOverrides is the --overrides document of the case's run, or why the
// case is invalid.
func caseOverrides(target *preparation.Target, c testcases.Case) ([]byte, string) {
	declared := declaredAgents(target)
	overrides, err := c.RunOverrides(target.Workflow.Dir, declared)
	if err != nil {
		return nil, err.Error()
	}
	if problem := invocation.OverridesProblem(overrides); problem != "" {
		return nil, "overrides: " + problem
	}
	if err := invocation.CheckOverrideTargets(overrides, target.Name(), declared.All()); err != nil {
		return nil, strings.TrimPrefix(clierr.As(err).Message, "--overrides: ")
	}
	return overrides, ""
}

// declaredAgents are the agent configurations of the target and of the
// workflows it runs as children, theirs included.
func declaredAgents(target *preparation.Target) testcases.Declared {
	agentsOf := func(w *discovery.Workflow) map[string]any {
		agents, _ := w.Manifest.Sections["agents"].(map[string]any)
		return agents
	}
	d := testcases.Declared{Own: agentsOf(target.Workflow), Children: map[string]map[string]any{}}
	queue := slices.Clone(target.Workflow.Sources.References)
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		w, known := target.Root.Workflows[name]
		if _, seen := d.Children[name]; seen || !known || w == target.Workflow {
			continue
		}
		d.Children[name] = agentsOf(w)
		queue = append(queue, w.Sources.References...)
	}
	return d
}

// declareChildAgents has the case's run of target declare, besides its
// own agent configurations, those of its children it does not declare
// itself, in this process's copy of its workflow.yaml only: the runtime
// refuses overrides for configurations the top workflow does not declare,
// and a case's scripts for "child/writer" are overrides for writer, which
// reach the child by inheritance. The workflow's code creating a writer
// of its own still fails, as the agent host reads workflow.yaml itself.
func declareChildAgents(target *preparation.Target) {
	declared := declaredAgents(target)
	if len(declared.All()) == len(declared.Own) {
		return
	}
	if target.Workflow.Manifest.Sections == nil {
		target.Workflow.Manifest.Sections = map[string]any{}
	}
	target.Workflow.Manifest.Sections["agents"] = declared.All()
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
