package pipeline

import (
	"context"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/agentapi"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/toolcall"
)

// agentConfig checks the workflow.yaml agents section, then (explicit
// builds only) the workflow's test cases and the scripts they give agents.
func (p *preparer) agentConfig(ctx context.Context, w *discovery.Workflow) *Result {
	if fail := p.agentSection(ctx, w); fail != nil {
		return fail
	}
	return p.testCases(ctx, w)
}

// agentSection checks the workflow.yaml agents section with the agent
// host's own validation (stratos-agent validate-config), so a bad agent
// configuration fails the build with its file and field path instead of
// waiting for the first execute. Workflows without agents skip the check.
func (p *preparer) agentSection(ctx context.Context, w *discovery.Workflow) *Result {
	if _, ok := w.Manifest.Sections["agents"]; !ok {
		return nil
	}
	var res agentapi.ConfigValidation
	err := toolcall.Run(ctx, toolcall.Call{Tool: agentapi.Tool, Args: []string{"validate-config", w.Dir, "--json"},
		Stderr: p.stderr, AnswersOnFailure: true}, &res)
	if err != nil {
		if clierr.As(err).Code == errcode.CodeToolNotFound {
			return failed(w, ReasonToolchain, errorDiagnostic(err))
		}
		return failed(w, ReasonInternal, message("validate the agents section of %s: %v", w.Dir, err))
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
