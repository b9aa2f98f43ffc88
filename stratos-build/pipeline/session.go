package pipeline

import (
	"context"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/buildapi"
	"github.com/stratoscli/stratos/shared/contract/discoverapi"
	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/roots"
	"github.com/stratoscli/stratos/shared/sdk"
	"github.com/stratoscli/stratos/shared/toolchain"
)

// Session runs preparations for one command invocation.
type Session struct {
	Log    hclog.Logger
	Stderr io.Writer
	Cwd    string
	// DefinitionTimeout bounds each definition load (build.definitionTimeout
	// in ~/.stratos/settings.json); zero means settings.DefaultDefinitionTimeout.
	DefinitionTimeout time.Duration
	// Explicit marks `stratos build`: every declared MCP server is
	// rediscovered, and a workflow without its entrypoint may still have
	// its MCP wrappers generated (the manifest-first flow).
	Explicit bool
	// CheckModels makes every preparation recheck the local (Ollama)
	// models declared in workflow.yaml, built or not: explicit `stratos
	// build` sets it; the implicit build of `stratos run` does not.
	CheckModels bool
	// NeedsDefinition is set by the commands that print the target's
	// definition (describe, schema): its definition is then loaded by
	// node even where a rebuild could keep it from its build record (see
	// kept.go), so the module's output is printed.
	NeedsDefinition bool
}

// Outcome is what a preparation produced.
type Outcome struct {
	Results  []*Result
	Warnings []string
	Builder  *Builder
	Target   *Result // the requested workflow's result (targeted preparations)
}

// Failed reports whether any result failed.
func (o *Outcome) Failed() bool {
	for _, r := range o.Results {
		if r.Failed() {
			return true
		}
	}
	return false
}

// PrepareTarget prepares one workflow (by name or path) and what it requires.
// Unknown or invalid targets are usage errors (exit 2).
func (s *Session) PrepareTarget(ctx context.Context, arg string) (*Outcome, error) {
	w, root, err := discovery.Resolve(s.Cwd, arg, roots.Both)
	if err != nil {
		return nil, err
	}
	// The fast path writes nothing and takes no lock; stale wrappers are
	// removed by every explicit preparation, so they send it the slow way.
	if fresh(root, []*discovery.Workflow{w}) && len(staleWrappers(root)) == 0 && !(s.Explicit && declaresMCP(root)) {
		b := newBuilder(s.builderConfig(root))
		target := b.Prepare(ctx, w)
		if err := b.InterruptedError(ctx); err != nil {
			return nil, err
		}
		return &Outcome{Target: target, Results: b.Results(), Builder: b}, nil
	}
	ahead, err := discoverMCPAhead(ctx, requiredClosure(root, w), s.Explicit, s.Log, s.Stderr)
	if err != nil {
		return nil, err
	}
	var out *Outcome
	err = withRootLock(ctx, root.Root.Dir, s.Log, &out, func() error {
		// Another process may have built while we waited: look again.
		w, root, err = discovery.Resolve(s.Cwd, w.Dir, roots.Both)
		if err != nil {
			return err
		}
		closure := requiredClosure(root, w)
		c := s.builderConfig(root)
		c.mcpAhead, c.phases = ahead, s.startPhases(len(closure))
		if s.NeedsDefinition {
			c.wanted = w
		}
		b := newBuilder(c)
		b.PrepareBatch(ctx, closure)
		if err := b.InterruptedError(ctx); err != nil {
			return err
		}
		target := b.Prepare(ctx, w)
		if err := b.InterruptedError(ctx); err != nil {
			return err
		}
		b.removeStaleWrappers()
		out = &Outcome{Target: target, Results: b.Results(), Warnings: b.Warnings(), Builder: b}
		return nil
	})
	return out, err
}

// PrepareProject prepares every workflow of the project root of the working
// directory, children before parents, continuing after failures.
func (s *Session) PrepareProject(ctx context.Context) (*Outcome, error) {
	pr, ok, err := roots.ProjectRoot(s.Cwd)
	if err != nil {
		return nil, clierr.New(discoverapi.CodeRootsUnresolved, "%v", err)
	}
	if !ok {
		return nil, clierr.Usage(buildapi.CodeNoProject, "%s is not inside a Stratos project (no .stratos/ directory here or above); name a workflow to build, or create .stratos/workflows/", s.Cwd)
	}
	if err := os.MkdirAll(pr.Dir, 0o755); err != nil {
		return nil, clierr.New(buildapi.CodeRootUnwritable, "create %s: %v", pr.Dir, err)
	}
	phases := s.startPhases(0)
	// Builds change no manifest, so the workflows are read before the lock,
	// for the MCP discovery that runs before it.
	cat, err := discovery.Load([]roots.Root{pr})
	if err != nil {
		return nil, clierr.New(discoverapi.CodeRootUnreadable, "%v", err)
	}
	root := cat.Roots[0]
	ahead, err := discoverMCPAhead(ctx, root.Sorted(), s.Explicit, s.Log, s.Stderr)
	if err != nil {
		return nil, err
	}
	var out *Outcome
	err = withRootLock(ctx, pr.Dir, s.Log, &out, func() error {
		if err := root.Freshen(root.Sorted()); err != nil {
			return clierr.New(discoverapi.CodeReadFailed, "%v", err)
		}
		if phases != nil {
			phases.workflows = len(root.Workflows)
			phases.done("discovery")
		}
		c := s.builderConfig(root)
		c.mcpAhead, c.phases = ahead, phases
		b := newBuilder(c)
		b.PrepareBatch(ctx, root.Sorted())
		if err := b.InterruptedError(ctx); err != nil {
			return err
		}
		for _, w := range root.Sorted() {
			b.Prepare(ctx, w)
			if err := b.InterruptedError(ctx); err != nil {
				return err
			}
		}
		b.removeStaleWrappers()
		phases.done("rest")
		results := append([]*Result{}, b.Results()...)
		results = append(results, invalidResults(root)...)
		out = &Outcome{Results: results, Warnings: b.Warnings(), Builder: b}
		return nil
	})
	return out, err
}

// requiredClosure returns w and every workflow of root it requires,
// directly or not, children before parents where the references allow.
func requiredClosure(root *discovery.Root, w *discovery.Workflow) []*discovery.Workflow {
	seen := map[*discovery.Workflow]bool{}
	var out []*discovery.Workflow
	var visit func(*discovery.Workflow)
	visit = func(w *discovery.Workflow) {
		if w == nil || seen[w] {
			return
		}
		seen[w] = true
		for _, name := range w.Sources.References {
			visit(root.Workflows[name])
		}
		out = append(out, w)
	}
	visit(w)
	return out
}

// builderConfig is the configuration of a builder of root for the
// invocation.
func (s *Session) builderConfig(root *discovery.Root) builderConfig {
	log := s.Log
	return builderConfig{
		root: root, log: log, stderr: s.Stderr, definitionTimeout: s.DefinitionTimeout, explicit: s.Explicit, checkModels: s.CheckModels,
		toolchain: func(ctx context.Context) (*toolchain.Toolchain, error) {
			return toolchain.Ensure(ctx, toolchain.Options{Log: log})
		},
	}
}

// startPhases starts the profile of a build of workflows workflows when
// the log is at debug level (phases.go); nil otherwise.
func (s *Session) startPhases(workflows int) *phaseClock {
	if !s.Log.IsDebug() {
		return nil
	}
	return startPhases(s.Log, workflows)
}

// fresh reports whether targets and everything they reference are built
// and the root's SDK is current: then nothing will be written and no lock
// is needed.
func fresh(root *discovery.Root, targets []*discovery.Workflow) bool {
	sdkCurrent := sdk.Current(root.Root.Dir)
	for _, t := range targets {
		if root.StaleReason(t, sdkCurrent) != "" {
			return false
		}
	}
	return true
}

func invalidResults(root *discovery.Root) []*Result {
	byDir := map[string][]Diagnostic{}
	for _, p := range root.Problems {
		byDir[p.Dir] = append(byDir[p.Dir], Diagnostic{Message: p.Message, File: p.Manifest, Code: p.Code})
	}
	var out []*Result
	for _, dir := range slices.Sorted(maps.Keys(byDir)) {
		out = append(out, &Result{Name: filepath.Base(dir), Dir: dir, Status: StatusFailed, Reason: ReasonInvalidWorkflow, Diagnostics: byDir[dir]})
	}
	return out
}

// removeStaleWrappers deletes Stratos-generated wrappers in <root>/.generated
// whose workflow no longer exists (deleted or renamed), so that a reference
// to it fails as missing instead of compiling against an outdated contract.
func (b *Builder) removeStaleWrappers() {
	for _, p := range staleWrappers(b.root) {
		if err := os.Remove(p); err != nil {
			b.warnings.add("remove stale wrapper %s: %v", p, err)
		} else {
			b.log.Info("removed stale wrapper", "file", p)
		}
	}
}

// staleWrappers returns the Stratos-generated wrappers in <root>/.generated
// that belong to no valid workflow of root. Files Stratos did not generate
// are not listed.
func staleWrappers(root *discovery.Root) []string {
	dir := filepath.Join(root.Root.Dir, ".generated")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".ts")
		if !ok || e.IsDir() {
			continue
		}
		if _, valid := root.Workflows[name]; valid {
			continue
		}
		if p := filepath.Join(dir, e.Name()); IsGeneratedWrapper(p) {
			out = append(out, p)
		}
	}
	return out
}

// generatedHeaderPrefix starts every wrapper wrappergen writes.
const generatedHeaderPrefix = "// Code generated by stratos-build"

// IsGeneratedWrapper reports whether the file at p carries the header that
// wrappergen writes.
func IsGeneratedWrapper(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 64)
	n, _ := io.ReadFull(f, head)
	return strings.HasPrefix(string(head[:n]), generatedHeaderPrefix)
}

// declaresMCP reports whether a workflow of root declares an mcp section:
// an explicit build then rediscovers and may rewrite wrappers, so it cannot
// take the fast path that writes nothing.
func declaresMCP(root *discovery.Root) bool {
	for _, w := range root.Workflows {
		if _, ok := w.Manifest.Sections["mcp"]; ok {
			return true
		}
	}
	return false
}
