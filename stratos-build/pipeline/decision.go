package pipeline

import (
	"context"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/agentapi"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/toolcall"
)

// ReasonDecisionConfig: workflow.yaml's decision section is invalid.
const ReasonDecisionConfig = "decision-config-invalid"

// decisionSection checks the workflow.yaml decision section with the
// agent host's own rules (stratos-agent check-decision), the ones a
// decision applies at run time, so that a bad section fails the build
// naming its file and field instead of the first decision. reach (the
// explicit build's check) also reaches the endpoint the section selects
// and finds its model there; a failure then is models-unavailable. Other
// builds do not call out. Workflows without the section skip the check.
func (p *preparer) decisionSection(ctx context.Context, w *discovery.Workflow, reach bool) *Result {
	if _, ok := w.Manifest.Sections["decision"]; !ok {
		return nil
	}
	args := []string{"check-decision", w.Dir, "--json"}
	reason := ReasonDecisionConfig
	if reach {
		args, reason = append(args, "--reach"), ReasonModelsUnavailable
	}
	var res agentapi.ConfigValidation
	err := toolcall.Run(ctx, toolcall.Call{Tool: agentapi.Tool, Args: args, Stderr: p.stderr, AnswersOnFailure: true}, &res)
	if err != nil {
		if clierr.As(err).Code == errcode.CodeToolNotFound {
			return failed(w, ReasonToolchain, errorDiagnostic(err))
		}
		if ctx.Err() != nil {
			return nil // an interruption is reported by the builder's caller
		}
		return failed(w, ReasonInternal, message("check the decision section of %s: %v", w.Dir, err))
	}
	if res.Valid {
		return nil
	}
	var diags []Diagnostic
	for _, pr := range res.Problems {
		diags = append(diags, Diagnostic{File: pr.File, Message: pr.String()})
	}
	return failed(w, reason, diags...)
}
