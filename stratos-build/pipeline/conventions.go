package pipeline

import (
	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/sdk"
	"github.com/stratoscli/stratos/stratos-build/schemacheck"
)

// conventionViolations checks the schema conventions of a loaded definition
// (objects, descriptions, reserved overrides, nothing JSON Schema cannot
// represent, strict input objects), each violation naming the field's path.
func conventionViolations(w *discovery.Workflow, def *sdk.Definition) []Diagnostic {
	in := schemacheck.Definition{Input: def.Input, Output: def.Output}
	for _, u := range def.Unrepresentable {
		in.Unrepresentable = append(in.Unrepresentable, schemacheck.Unrepresentable{Side: u.Side, Path: u.Path, Kind: u.Kind})
	}
	var out []Diagnostic
	for _, v := range schemacheck.Check(w.Manifest.Name, in) {
		out = append(out, Diagnostic{Message: v.Message, Code: v.Code})
	}
	return out
}
