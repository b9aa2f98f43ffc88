package command

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/agentapi"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/manifest"
	testharness "github.com/stratoscli/stratos/stratos-agent/adapters/test"
	"github.com/stratoscli/stratos/stratos-agent/agentconfig"
	"github.com/stratoscli/stratos/stratos-agent/decision"
)

// validateConfigCommand is `stratos-agent validate-config`: the build-time
// check of a workflow.yaml's agents section, with the same validation the
// agent host applies at the first execute.
func validateConfigCommand() *cli.Command {
	return &cli.Command{
		Name:      "validate-config",
		Usage:     "check the agents section of a workflow.yaml",
		ArgsUsage: "[workflow-dir]",
		Description: cliapp.Lines(
			"Validates the agents section of <workflow-dir>/workflow.yaml against the agent configuration",
			"schema and checks the MCP server and built-in tool names it uses. Without an argument the",
			`directory comes as {"dir": "..."} on stdin, optionally with "overrides": an invocation's`,
			"overrides, whose agents entries are checked the same way, and whose decision settings are",
			"checked as a decision checks that layer on its own, test script included (stratos run sends",
			"the agents entries of its --overrides, stratos test each case's overrides).",
			"Exit 0 when valid, 1 with the problems listed (each names the file and the path of the",
			"field) when not."),
		Flags:  []cli.Flag{cliapp.JSONFlag()},
		Action: validateConfig,
	}
}

func validateConfig(_ context.Context, cmd *cli.Command) error {
	if err := cliapp.ExactArgs(cmd, 0, 1, "[workflow-dir] [--json]"); err != nil {
		return err
	}
	req := agentapi.ConfigValidationRequest{Dir: cmd.Args().First()}
	if req.Dir == "" {
		if err := json.NewDecoder(cmd.Root().Reader).Decode(&req); err != nil || req.Dir == "" {
			return clierr.Usage(errcode.CodeUsage, `validate-config: give a workflow directory as argument or {"dir": "..."} on stdin`)
		}
	}
	dir := req.Dir
	abs, err := filepath.Abs(dir)
	if err != nil {
		return clierr.Usage(errcode.CodeUsage, "validate-config: %v", err)
	}
	v, err := builtinValidator()
	if err != nil {
		return clierr.New(errcode.CodeInternal, "%v", err)
	}
	wf, problems := agentconfig.LoadWorkflow(v, abs)
	if wf != nil {
		problems = append(problems, testScriptProblems(wf)...)
	}
	problems = append(problems, overridesProblems(v, wf, abs, req.Overrides)...)
	res := agentapi.ConfigValidation{Dir: abs, File: filepath.Join(abs, manifest.FileName), Valid: len(problems) == 0, Problems: problems}
	if res.Problems == nil {
		res.Problems = []agentapi.ConfigProblem{}
	}
	if cmd.Bool("json") {
		if err := clierr.PrintJSON(cmd.Root().Writer, res); err != nil {
			return err
		}
	} else {
		for _, p := range problems {
			fmt.Fprintln(cmd.Root().ErrWriter, p.String())
		}
		if res.Valid {
			fmt.Fprintf(cmd.Root().Writer, "%s: agents section is valid\n", res.File)
		}
	}
	if !res.Valid {
		return cliapp.Silent(clierr.ExitFailed)
	}
	return nil
}

// testScriptProblems loads every test-harness script the agents section
// sets, so a broken script (often a separate file, which does not make the
// workflow stale) fails the build instead of the first execute.
func testScriptProblems(wf *agentconfig.Workflow) []agentconfig.Problem {
	ids := slices.Sorted(maps.Keys(wf.Agents))
	var out []agentconfig.Problem
	for _, id := range ids {
		raw := wf.Agents[id].Test
		if len(raw) == 0 {
			continue
		}
		if _, err := testharness.LoadScript(raw, wf.Dir); err != nil {
			out = append(out, agentconfig.Problem{File: wf.File, Path: "agents." + id + ".test", Message: err.Error()})
		}
	}
	return out
}

// decisionOverridesProblems checks an invocation's decision overrides as
// a decision checks that layer on its own: its fields, their ranges and
// the test provider's script, entry by entry. What depends on the other
// layers (the provider and model they complete, the endpoint) is checked
// when a decision uses them.
func decisionOverridesProblems(raw json.RawMessage) []agentconfig.Problem {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if _, err := decision.Resolve(decision.Layer{Name: overridesDecision, Raw: raw}); err != nil {
		return []agentconfig.Problem{decisionProblem("", overridesDecision, err)}
	}
	return nil
}

// overridesDecision names the invocation's decision overrides as a layer.
const overridesDecision = "overrides.decision"

// overridesProblems checks the agents entries of an invocation's overrides
// as the host checks them when it creates an agent, and its decision
// overrides as a decision checks them: each against the
// schema, then its references to MCP servers and tools (when the
// workflow's own section is valid, which names the servers) and its test
// script. dir is the workflow directory, which script files resolve
// against.
func overridesProblems(v *agentconfig.Validator, wf *agentconfig.Workflow, dir string, raw json.RawMessage) []agentconfig.Problem {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var doc struct {
		Agents   map[string]json.RawMessage `json:"agents"`
		Decision json.RawMessage            `json:"decision"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return []agentconfig.Problem{{Path: "overrides", Message: err.Error()}}
	}
	ids := slices.Sorted(maps.Keys(doc.Agents))
	var out []agentconfig.Problem
	for _, id := range ids {
		path := "overrides.agents." + id
		var entry any
		if err := json.Unmarshal(doc.Agents[id], &entry); err != nil {
			out = append(out, agentconfig.Problem{Path: path, Message: err.Error()})
			continue
		}
		if problems := v.Entry("", path, entry, false); len(problems) > 0 {
			out = append(out, problems...)
			continue
		}
		var c agentproto.AgentConfig
		if err := json.Unmarshal(doc.Agents[id], &c); err != nil {
			out = append(out, agentconfig.Problem{Path: path, Message: err.Error()})
			continue
		}
		if wf != nil {
			out = append(out, v.CheckReferences(c, wf.MCPServers, "", path)...)
		}
		if len(c.Test) > 0 {
			if _, err := testharness.LoadScript(c.Test, dir); err != nil {
				out = append(out, agentconfig.Problem{Path: path + ".test", Message: err.Error()})
			}
		}
	}
	return append(out, decisionOverridesProblems(doc.Decision)...)
}
