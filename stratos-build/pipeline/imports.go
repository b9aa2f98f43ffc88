package pipeline

import "github.com/stratoscli/stratos/shared/freshness"

// outsideRootDiagnostics explains each import that leaves the discovery
// root: tsc compiles a workflow with the root as rootDir, so a file outside
// it has no place in the workflow's dist/.
func outsideRootDiagnostics(root string, imports []freshness.OutsideImport) []Diagnostic {
	diags := make([]Diagnostic, 0, len(imports))
	for _, imp := range imports {
		diags = append(diags, Diagnostic{File: imp.File, Code: ReasonImportOutsideRoot, Message: sprintf(
			"%s imports %q, which resolves to %s outside the discovery root %s; move the shared code into the root (for example a lib/ directory beside the workflows) and import it from there",
			imp.File, imp.Specifier, imp.Resolved, root)})
	}
	return diags
}
