package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/buildapi"
	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/shared/pkgjson"
	"github.com/stratoscli/stratos/shared/sdk"
)

// dependencies applies the package metadata rule to the workflow's
// package.json, refuses an SDK copy that would shadow the root's, and
// installs the workflow's own npm dependencies when they are not installed
// yet: `npm ci` with a lock file, `npm install` without.
func (p *preparer) dependencies(ctx context.Context, w *discovery.Workflow) *Result {
	defer p.steps.start("npm dependencies")()
	pj := filepath.Join(w.Dir, pkgjson.FileName)
	if _, err := pkgjson.EnsureModule(pj); err != nil {
		return failed(w, ReasonPackageMetadata, errorDiagnostic(err))
	}
	if err := sdk.FindShadowingSDK(p.root.Root.Dir, w.Dir); err != nil {
		return failed(w, ReasonSDKShadowed, errorDiagnostic(err))
	}
	declares, err := declaresDependencies(pj)
	if err != nil {
		return failed(w, ReasonPackageMetadata, message("%v", err))
	}
	if !declares || installed(w.Dir) {
		return nil
	}
	p.progress.enter(ctx, PhaseToolchain, w)
	tc, err := p.tools.get(ctx)
	if err != nil {
		return failed(w, ReasonToolchain, errorDiagnostic(err))
	}
	p.progress.enter(ctx, PhaseDependencies, w)
	args := []string{"install", "--no-audit", "--no-fund", "--no-update-notifier"}
	if _, err := os.Stat(filepath.Join(w.Dir, "package-lock.json")); err == nil {
		args = []string{"ci", "--no-audit", "--no-fund", "--no-update-notifier"}
	}
	p.log.Info("installing dependencies", "workflow", w.Manifest.Name, "command", "npm "+args[0])
	if err := tc.RunNPM(ctx, p.log, w.Dir, args...); err != nil {
		return failed(w, ReasonDependencies, errorDiagnostic(err))
	}
	return nil
}

func declaresDependencies(pj string) (bool, error) {
	data, err := pkgjson.Read(pj)
	if err != nil {
		return false, err
	}
	declares, err := freshness.DeclaresDependencies(data)
	if err != nil {
		return false, clierr.New(buildapi.CodePackageJSONInvalid, "%s: %v", pj, err)
	}
	return declares, nil
}

// installed reports whether npm's record of the last install
// (node_modules/.package-lock.json) is newer than package.json and
// package-lock.json: then the dependencies are in place and npm need not run.
func installed(dir string) bool {
	marker, err := os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json"))
	if err != nil {
		return false
	}
	for _, f := range []string{"package.json", "package-lock.json"} {
		fi, err := os.Stat(filepath.Join(dir, f))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil || fi.ModTime().After(marker.ModTime()) {
			return false
		}
	}
	return true
}
