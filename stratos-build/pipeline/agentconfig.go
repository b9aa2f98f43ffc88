package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os/exec"

	"github.com/stratoscli/stratos/shared/contract/agentapi"
	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/procgroup"
	"github.com/stratoscli/stratos/shared/sibling"
)

// agentConfig checks the workflow.yaml agents section with the agent
// host's own validation (stratos-agent validate-config), so a bad agent
// configuration fails the build with its file and field path instead of
// waiting for the first execute. Workflows without agents skip the check.
func (p *preparer) agentConfig(ctx context.Context, w *discovery.Workflow) *Result {
	if _, ok := w.Manifest.Sections["agents"]; !ok {
		return nil
	}
	tool, err := sibling.Find("stratos-agent")
	if err != nil {
		return failed(w, ReasonToolchain, errorDiagnostic(err))
	}
	var stdout bytes.Buffer
	cmd := exec.CommandContext(ctx, tool, "validate-config", w.Dir, "--json")
	cmd.Stdout, cmd.Stderr = &stdout, p.stderr
	runErr := procgroup.Run(cmd, procgroup.Options{})
	var exit *exec.ExitError
	if runErr != nil && (!errors.As(runErr, &exit) || exit.ExitCode() != 1) {
		return failed(w, ReasonInternal, message("validate the agents section of %s: %v", w.Dir, runErr))
	}
	var res agentapi.ConfigValidation
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		return failed(w, ReasonInternal, message("validate the agents section of %s: unreadable answer: %v", w.Dir, err))
	}
	if res.Valid {
		return nil
	}
	var diags []Diagnostic
	for _, p := range res.Problems {
		diags = append(diags, Diagnostic{File: p.File, Message: p.File + ": " + p.Path + ": " + p.Message})
	}
	return failed(w, ReasonAgentConfig, diags...)
}
