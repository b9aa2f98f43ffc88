package invocation

import (
	"context"
	"encoding/json"
	"io"
	"strings"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/agentapi"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/shared/toolcall"
)

// CheckAgentSettings returns a usage error (overrides_invalid) when the
// settings overrides (already checked by ReadOverrides and
// CheckOverrideTargets) gives an agent configuration are not ones the
// agent host accepts: an unknown field, a value of the wrong shape, an MCP
// server the workflow does not declare. The host would refuse them only
// when the workflow creates that agent, failing the run midway with exit
// 1, or never, for an agent that run does not create. The check is the
// host's own, `stratos-agent validate-config`, run only when overrides
// set agents. Only the agents entries are checked: decision overrides are
// checked when a decision uses them (docs/design/decision.md).
func CheckAgentSettings(ctx context.Context, overrides json.RawMessage, workflowDir string, stderr io.Writer) error {
	var doc struct {
		Agents map[string]json.RawMessage `json:"agents"`
	}
	if len(overrides) == 0 || json.Unmarshal(overrides, &doc) != nil || len(doc.Agents) == 0 {
		return nil
	}
	agents, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	return CheckSettings(ctx, agents, workflowDir, stderr)
}

// CheckSettings is CheckAgentSettings for the agents entries and the
// decision overrides both, the decision layer checked on its own as a
// decision checks it (its fields and the test provider's script):
// `stratos test` checks every case's overrides so before any case runs,
// whether or not the case's run would reach them.
func CheckSettings(ctx context.Context, overrides json.RawMessage, workflowDir string, stderr io.Writer) error {
	var doc struct {
		Agents   map[string]json.RawMessage `json:"agents"`
		Decision json.RawMessage            `json:"decision"`
	}
	if len(overrides) == 0 || json.Unmarshal(overrides, &doc) != nil || (len(doc.Agents) == 0 && len(doc.Decision) == 0) {
		return nil
	}
	res, err := validateConfig(ctx, agentapi.ConfigValidationRequest{Dir: workflowDir, Overrides: overrides}, stderr)
	if err != nil {
		return err
	}
	var lines []string
	var problems []agentapi.ConfigProblem
	for _, p := range res.Problems {
		// The workflow's own section is the build's to report.
		if strings.HasPrefix(p.Path, "overrides.") {
			lines, problems = append(lines, p.String()), append(problems, p)
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return clierr.Usage(runapi.CodeOverridesInvalid, "--overrides: %s", strings.Join(lines, "; ")).
		WithDetails(map[string]any{"problems": problems})
}

// validateConfig runs `stratos-agent validate-config --json` with req on
// its stdin; it exits 1 when it found problems, which its answer lists.
func validateConfig(ctx context.Context, req agentapi.ConfigValidationRequest, stderr io.Writer) (agentapi.ConfigValidation, error) {
	var res agentapi.ConfigValidation
	err := toolcall.Run(ctx, toolcall.Call{Tool: agentapi.Tool, Args: []string{"validate-config", "--json"}, Input: req,
		Stderr: stderr, AnswersOnFailure: true}, &res)
	if ctx.Err() != nil {
		ce := clierr.New(errcode.CodeInterrupted, "interrupted while checking --overrides").Wrap(ctx.Err())
		ce.Exit = clierr.ExitInterrupted
		return res, ce
	}
	return res, err
}
