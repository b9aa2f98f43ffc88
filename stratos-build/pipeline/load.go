package pipeline

import (
	"context"
	"path/filepath"

	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/shared/sdk"
)

// LoadDefinition loads the definition of a workflow whose build is current
// (for describe and schema on a reused build).
func (b *Builder) LoadDefinition(ctx context.Context, w *discovery.Workflow) (*sdk.Definition, *Result) {
	return b.loadDefinition(ctx, w)
}

// loadDefinition loads the workflow's compiled definition with node (its
// module is evaluated; run is never called) and checks the schema
// conventions.
func (b *Builder) loadDefinition(ctx context.Context, w *discovery.Workflow) (*sdk.Definition, *Result) {
	tc, err := b.toolchain(ctx)
	if err != nil {
		return nil, failed(w, ReasonToolchain, errorDiagnostic(err))
	}
	entry := filepath.Join(w.Dir, filepath.FromSlash(freshness.CompiledEntry(w.Dir, w.Manifest.Entrypoint)))
	def, err := sdk.LoadDefinition(ctx, tc, b.Root.Root.Dir, entry, b.Stderr)
	if err != nil {
		return nil, failed(w, ReasonDefinitionInvalid, errorDiagnostic(err))
	}
	if diags := conventionViolations(w, def); len(diags) > 0 {
		return nil, failed(w, ReasonSchemaConventions, diags...)
	}
	return def, nil
}
