package pipeline

import (
	"context"
	"errors"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/buildapi"
	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/shared/sdk"
)

// rootSetup readies the discovery root once per invocation, before the
// first workflow is built: the toolchain, the root's package metadata, the
// shared SDK and the Git ignore rules. It owns what the invocation knows
// of the root's SDK (sdkState).
type rootSetup struct {
	root     *discovery.Root
	log      hclog.Logger
	tools    *toolchainSource
	progress *progress
	steps    *stepTimes
	warnings *warnings
	// prepared reports whether the builder has its result for w already:
	// a reinstalled SDK leaves those as they are (see invalidate).
	prepared func(w *discovery.Workflow) bool

	ready bool
	// known and sdk memoize sdk.Current for the invocation: it hashes the
	// embedded SDK, which once per workflow made a no-op build of a large
	// root several times slower than listing it.
	known bool
	sdk   sdkState
}

// sdkState is what the invocation knows of the root's SDK.
type sdkState struct {
	// current: the root holds this CLI's SDK.
	current bool
	// reinstalled: this invocation installed it, so no definition is
	// kept from a record (see kept.go).
	reinstalled bool
}

// ensure readies the root for w's build, once per invocation.
func (s *rootSetup) ensure(ctx context.Context, w *discovery.Workflow) *Result {
	if s.ready {
		return nil
	}
	defer s.steps.start("sdk check")()
	s.progress.enter(ctx, PhaseToolchain, w)
	tc, err := s.tools.get(ctx)
	if err != nil {
		return failed(w, ReasonToolchain, errorDiagnostic(err))
	}
	s.progress.enter(ctx, PhaseDependencies, w)
	reinstalled, err := sdk.EnsureInstalled(ctx, tc, s.root.Root.Dir, s.log)
	if err != nil {
		reason := ReasonDependencies
		if ce := (*clierr.Error)(nil); errors.As(err, &ce) && ce.Code == buildapi.CodePackageCommonJS {
			reason = ReasonPackageMetadata
		}
		return failed(w, reason, errorDiagnostic(err))
	}
	if reinstalled {
		s.sdk.reinstalled = true
		s.invalidate()
	}
	s.known, s.sdk.current = true, true
	s.manageGitIgnores(ctx)
	s.ready = true
	return nil
}

// state reports what is known of the root's SDK. Once ensure has run, the
// root holds this CLI's SDK for the rest of the invocation.
func (s *rootSetup) state() sdkState {
	if !s.known {
		s.known, s.sdk.current = true, sdk.Current(s.root.Root.Dir)
	}
	return s.sdk
}

// sdkCurrent reports whether the root holds this CLI's SDK.
func (s *rootSetup) sdkCurrent() bool { return s.state().current }

// invalidate removes every build record of the root: they were built
// against another SDK version. The built workflows still to be prepared
// in this run are marked stale too, so none of them is reused on the
// strength of a record that is now gone; the others keep the reason they
// already had (never-built, …).
func (s *rootSetup) invalidate() {
	for _, w := range s.root.Sorted() {
		if err := freshness.RemoveRecord(w.Dir); err != nil {
			s.warnings.add("remove the build record of %s: %v", w.Manifest.Name, err)
		}
		if !s.prepared(w) && w.Status == freshness.Built {
			w.Status, w.Reason = freshness.NotBuilt, freshness.ReasonSDKNotCurrent
		}
	}
}

func errorDiagnostic(err error) Diagnostic { return Diagnostic{Message: clierr.As(err).Message} }
