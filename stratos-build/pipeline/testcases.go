package pipeline

import (
	"context"
	"encoding/json"
	"path/filepath"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/toolcall"
)

// ReasonTestCases: an explicit build found an invalid test case of the
// workflow (tests/*.yaml), or an invalid script one gives an agent.
const ReasonTestCases = "test-cases-invalid"

// testCases is the explicit build's check of the workflow's test cases,
// with the check `stratos test` makes before running them (stratos-run
// test --check): a typo in a case or in a script it names fails the build,
// not the case that uses it. A run's preparation skips it: cases do not
// change what a run does.
func (p *preparer) testCases(ctx context.Context, w *discovery.Workflow) *Result {
	if !p.explicit {
		return nil
	}
	if files, _ := filepath.Glob(filepath.Join(w.Dir, "tests", "*.yaml")); len(files) == 0 {
		return nil
	}
	var res runapi.TestCheck
	err := toolcall.Run(ctx, toolcall.Call{Tool: runapi.Tool, Args: []string{"test", w.Dir, "--check", "--json"}, Stderr: p.stderr}, &res)
	if err == nil || ctx.Err() != nil {
		return nil // an interruption is reported by the builder's caller
	}
	ce := clierr.As(err)
	switch ce.Code {
	case runapi.CodeTestCasesInvalid:
		return failed(w, ReasonTestCases, problemDiagnostics(w, ce)...)
	case errcode.CodeToolNotFound:
		return failed(w, ReasonToolchain, errorDiagnostic(err))
	}
	return failed(w, ReasonInternal, message("check the test cases of %s: %v", w.Dir, err))
}

// problemDiagnostics are the check's problems, one diagnostic each, at
// its case file and line.
func problemDiagnostics(w *discovery.Workflow, ce *clierr.Error) []Diagnostic {
	var problems []runapi.TestCaseProblem
	if raw, err := json.Marshal(ce.Details["problems"]); err == nil {
		_ = json.Unmarshal(raw, &problems) // none decoded: the message below
	}
	var out []Diagnostic
	for _, p := range problems {
		out = append(out, Diagnostic{File: filepath.Join(w.Dir, p.File), Line: p.Line, Message: p.String()})
	}
	if len(out) == 0 {
		out = append(out, Diagnostic{File: w.Dir, Message: ce.Message})
	}
	return out
}
