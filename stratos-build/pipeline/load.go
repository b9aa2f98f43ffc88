package pipeline

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"time"

	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/shared/sdk"
	"github.com/stratoscli/stratos/shared/settings"
	"github.com/stratoscli/stratos/shared/toolchain"
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
	entry := filepath.Join(w.Dir, filepath.FromSlash(freshness.CompiledEntry(w.Dir, w.Manifest.Entrypoint)))
	return b.loadDefinitionFrom(ctx, w, entry)
}

// loadDefinitionFrom is loadDefinition of the compiled entry at entry (a
// build loads from its staging directory).
func (b *Builder) loadDefinitionFrom(ctx context.Context, w *discovery.Workflow, entry string) (*sdk.Definition, *Result) {
	b.enter(PhaseToolchain, w)
	tc, err := b.toolchain(ctx)
	if err != nil {
		return nil, failed(w, ReasonToolchain, errorDiagnostic(err))
	}
	b.enter(PhaseLoad, w)
	return b.loadWith(ctx, tc, w, entry, b.Stderr)
}

// loaderAhead starts a loader process beside the compile whose output it
// will load; nil (which Close accepts) when there is no toolchain, which
// the compile then reports.
func (b *Builder) loaderAhead(ctx context.Context) *sdk.Loader {
	tc, err := b.toolchain(ctx)
	if err != nil {
		return nil
	}
	return sdk.StartLoader(ctx, tc, b.Root.Root.Dir, b.Stderr)
}

// loadWithLoader loads w's definition from entry with loader, started
// beside the compile by loaderAhead (the caller closes it), or like
// loadDefinitionFrom without one.
func (b *Builder) loadWithLoader(ctx context.Context, w *discovery.Workflow, loader *sdk.Loader, entry string) (*sdk.Definition, *Result) {
	if loader == nil {
		return b.loadDefinitionFrom(ctx, w, entry)
	}
	b.enter(PhaseLoad, w)
	var loaded sdk.Loaded
	loader.LoadEach([]string{entry}, b.definitionTimeout(), func(_ int, l sdk.Loaded) { loaded = l })
	return b.checkLoaded(w, loaded)
}

// loadWith loads w's definition from entry with tc, the module's output
// going to stderr. It changes no builder state, so several loads may run
// at once.
func (b *Builder) loadWith(ctx context.Context, tc *toolchain.Toolchain, w *discovery.Workflow, entry string, stderr io.Writer) (*sdk.Definition, *Result) {
	l := sdk.LoadDefinitions(ctx, tc, b.Root.Root.Dir, []string{entry}, stderr, b.definitionTimeout())[0]
	return b.checkLoaded(w, l)
}

// checkLoaded turns one load's result into w's definition, or its failure:
// a timeout, a module that does not load, or schemas that break the
// conventions.
func (b *Builder) checkLoaded(w *discovery.Workflow, l sdk.Loaded) (*sdk.Definition, *Result) {
	if errors.Is(l.Err, sdk.ErrDefinitionTimeout) {
		d := message("loading the definition of workflow %s did not finish within %s: its module's top-level code never finished (an endless loop, or an awaited promise that never settles?); the loader was stopped. The limit is build.definitionTimeout in ~/.stratos/settings.json",
			w.Manifest.Name, b.definitionTimeout())
		d.Code = ReasonDefinitionTimeout
		return nil, failed(w, ReasonDefinitionTimeout, d)
	}
	if l.Err != nil {
		return nil, failed(w, ReasonDefinitionInvalid, errorDiagnostic(l.Err))
	}
	if diags := conventionViolations(w, l.Definition); len(diags) > 0 {
		return nil, failed(w, ReasonSchemaConventions, diags...)
	}
	return l.Definition, nil
}

// definitionTimeout is the limit of one definition load.
func (b *Builder) definitionTimeout() time.Duration {
	if b.DefinitionTimeout > 0 {
		return b.DefinitionTimeout
	}
	return settings.DefaultDefinitionTimeout
}
