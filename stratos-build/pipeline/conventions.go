package pipeline

import (
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/sdk"
)

// conventionViolations checks the schema conventions of a loaded definition.
func conventionViolations(w *discovery.Workflow, def *sdk.Definition) []Diagnostic {
	var out []Diagnostic
	if err := def.UnrepresentableError(w.Manifest.Name); err != nil {
		out = append(out, Diagnostic{Message: clierr.As(err).Message, Code: "schema_unrepresentable"})
	}
	return out
}
