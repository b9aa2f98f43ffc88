package pipeline

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/discovery"
)

// preparer is the build's prepare stage: everything a workflow needs
// before it compiles. Before the reuse decision, its declared MCP
// servers' wrappers (mcp.go); then, for a workflow to build, its agents
// section (agentconfig.go), the root (rootSetup), its own npm dependencies
// (deps.go), and last its entrypoint and a new staging directory to
// compile into: a job.
type preparer struct {
	root     *discovery.Root
	log      hclog.Logger
	stderr   io.Writer
	explicit bool // `stratos build`: every declared MCP server is rediscovered
	// checkModels: every workflow prepared, fresh or not, has its declared
	// local models checked (explicit builds only).
	checkModels bool
	tools       *toolchainSource
	progress    *progress
	steps       *stepTimes
	rootSetup   *rootSetup
	// mcpAhead is what was discovered of MCP servers before the root lock
	// was taken (see discoverMCPAhead); nil for nothing.
	mcpAhead mcpDiscovered
}

// models is the explicit build's check of the local models w declares
// (models.go) and of its decision section's endpoint and model
// (decision.go); nil for other preparations.
func (p *preparer) models(ctx context.Context, w *discovery.Workflow) *Result {
	if !p.checkModels {
		return nil
	}
	if fail := checkDeclaredModels(ctx, w); fail != nil {
		return fail
	}
	// A bad section is decision-config-invalid, as in any build, before
	// its endpoint is reached.
	if fail := p.decisionSection(ctx, w, false); fail != nil {
		return fail
	}
	return p.decisionSection(ctx, w, true)
}

// setup runs a build's steps up to its children's wrappers: the agents
// section, the root, the workflow's dependencies.
func (p *preparer) setup(ctx context.Context, w *discovery.Workflow) *Result {
	p.log.Info("building", "workflow", w.Manifest.Name, "reason", p.root.StaleReason(w, p.rootSetup.sdkCurrent()))
	// The previous dist/ and record stay until the new build has fully
	// succeeded (see staging): the record's key is not the current one, so
	// it cannot pass for a build of what is being built now.
	p.progress.enter(ctx, PhasePrepare, w)
	if fail := p.agentConfig(ctx, w); fail != nil {
		return fail
	}
	if fail := p.decisionSection(ctx, w, false); fail != nil {
		return fail
	}
	if fail := p.rootSetup.ensure(ctx, w); fail != nil {
		return fail
	}
	// Step 2: this workflow's dependencies.
	return p.dependencies(ctx, w)
}

// stage returns w's job: its source entrypoint and the staging directory
// to compile into (step 7). An explicit build of a workflow without its
// entrypoint that declares MCP servers has prepared their wrappers only.
func (p *preparer) stage(w *discovery.Workflow, mcp mcpStep) (*job, *Result) {
	entry := filepath.Join(w.Dir, filepath.FromSlash(w.Manifest.Entrypoint))
	fi, err := os.Stat(entry)
	if err != nil {
		if p.explicit && len(mcp.servers) > 0 {
			return nil, p.mcpOnly(w, mcp)
		}
		return nil, failed(w, ReasonEntrypointNotFound, message("entrypoint %s not found (set entrypoint in %s/workflow.yaml, default workflow.ts)", entry, w.Dir))
	}
	// A directory (or a FIFO) by the entrypoint's name reached tsc, whose
	// "File not found" came back as a type error of no file.
	if !fi.Mode().IsRegular() {
		return nil, failed(w, ReasonEntrypointNotFound, message("entrypoint %s is not a file (set entrypoint in %s/workflow.yaml, default workflow.ts)", entry, w.Dir))
	}
	out, err := newStaging(w.Dir)
	if err != nil {
		return nil, failed(w, ReasonInternal, message("%v", err))
	}
	return &job{w: w, entry: entry, out: out}, nil
}

// mcpOnly is the manifest-first result: the MCP wrappers are generated so the
// author can write the entrypoint against them, but nothing is built.
func (p *preparer) mcpOnly(w *discovery.Workflow, mcp mcpStep) *Result {
	p.log.Info("MCP wrappers prepared; no entrypoint yet", "workflow", w.Manifest.Name)
	return &Result{Name: w.Manifest.Name, Dir: w.Dir, Status: StatusMCPPrepared, Diagnostics: []Diagnostic{message(
		"generated the wrappers of MCP servers %s in %s; write %s to build the workflow",
		strings.Join(mcp.servers.Names(), ", "), filepath.Join(w.Dir, "generated", "mcp"), w.Manifest.Entrypoint)}}
}
