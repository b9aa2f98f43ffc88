// Package preparation finds the workflow `stratos run` was asked for and
// makes sure it is built: fresh workflows are used as they are (nothing is
// executed: speed matters), anything else goes through the one preparation
// path, `stratos-build prepare`. It also describes the root's workflows to
// the runtime, which needs them for child workflows.
package preparation

import (
	"context"
	"io"
	"path/filepath"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/buildapi"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/shared/roots"
	"github.com/stratoscli/stratos/shared/sdk"
	"github.com/stratoscli/stratos/shared/toolcall"
)

// BuildingMessage is logged on stderr before an automatic build.
const BuildingMessage = "not built, running build first"

// Target is a resolved workflow with its root.
type Target struct {
	Workflow *discovery.Workflow
	Root     *discovery.Root
	// stale memoizes notBuiltReason: the check reads the SDK's files, and
	// a run asks before it starts node early and again in Prepare.
	stale *string
}

// Resolve finds the workflow named (or pointed to) by arg, validates it and
// computes its freshness; unknown or invalid workflows are usage errors.
func Resolve(cwd, arg string) (*Target, error) {
	w, root, err := discovery.Resolve(cwd, arg, roots.Both)
	if err != nil {
		return nil, err
	}
	return &Target{Workflow: w, Root: root}, nil
}

// Name is the workflow's name.
func (t *Target) Name() string { return t.Workflow.Manifest.Name }

// Fresh reports whether the workflow and every workflow it imports are
// built and the root's SDK is this CLI's: then it runs as it is. The answer
// is the first check's until Prepare builds.
func (t *Target) Fresh() bool { return t.notBuiltReason() == "" }

// walkClosure calls visit for the workflow and every workflow it imports,
// once each; found is false for a reference the root does not have.
func (t *Target) walkClosure(visit func(w *discovery.Workflow, found bool)) {
	seen := map[*discovery.Workflow]bool{}
	var walk func(w *discovery.Workflow)
	walk = func(w *discovery.Workflow) {
		if seen[w] {
			return
		}
		seen[w] = true
		visit(w, true)
		for _, name := range w.Sources.References {
			if c, ok := t.Root.Workflows[name]; ok {
				walk(c)
			} else {
				visit(nil, false)
			}
		}
	}
	walk(t.Workflow)
}

// Prepare builds the workflow (and what it imports) when it is not fresh,
// through `stratos-build prepare`, whose progress passes through to stderr.
// A failed build comes back as stratos-build's own error (build_failed).
func (t *Target) Prepare(ctx context.Context, log hclog.Logger, stderr io.Writer) error {
	if t.Fresh() {
		return nil
	}
	log.Info(BuildingMessage, "workflow", t.Name(), "reason", t.notBuiltReason())
	t.stale = nil
	var out buildapi.Prepared
	err := toolcall.Run(ctx, toolcall.Call{Tool: buildapi.Tool, Args: []string{"prepare", t.Workflow.Dir, "--json"}, Stderr: stderr}, &out)
	if ctx.Err() != nil {
		ce := clierr.New(errcode.CodeInterrupted, "interrupted while building %s", t.Name()).Wrap(ctx.Err())
		ce.Exit = clierr.ExitInterrupted
		return ce
	}
	if err != nil {
		return err
	}
	if out.Name != t.Name() {
		return clierr.New(runapi.CodePrepareMismatch, "stratos-build prepared %q when asked for %s (%s)", out.Name, t.Name(), t.Workflow.Dir)
	}
	return nil
}

func (t *Target) notBuiltReason() string {
	if t.stale == nil {
		reason := t.Root.StaleReason(t.Workflow, sdkCurrent(t.Root.Root.Dir))
		t.stale = &reason
	}
	return *t.stale
}

// sdkCurrent is sdk.Current that also records what it read in the SDK's
// stat cache, as builds do: a root built once and then run many times
// would otherwise have its SDK read byte for byte on every run (the build
// that installed the SDK cannot record files changed moments before).
// The cache only saves reads; one that cannot be written changes nothing.
func sdkCurrent(root string) bool {
	ok, _ := sdk.CurrentRecorded(root)
	return ok
}

// NeedsMCPLogins reports whether the workflow declares MCP servers with
// oauth, whose logins are checked before its run body.
func (t *Target) NeedsMCPLogins() bool { return len(oauthServers(t.Workflow)) > 0 }

// Entry is the workflow's compiled entrypoint (absolute).
func (t *Target) Entry() string {
	return compiledEntry(t.Workflow)
}

func compiledEntry(w *discovery.Workflow) string {
	return filepath.Join(w.Dir, filepath.FromSlash(freshness.CompiledEntry(w.Dir, w.Manifest.Entrypoint)))
}

// TableEntry describes one workflow of the root to the runtime.
type TableEntry struct {
	Dir   string `json:"dir"`
	Entry string `json:"entry"`
	// Built: the workflow is the one run or one it imports, directly or
	// not, so Prepare has made its build current. No other workflow is
	// runnable: its last build may be stale, and children are reached only
	// through generated wrappers, which put them in the closure.
	Built bool `json:"built"`
	// References are the workflows this one imports the generated wrappers
	// of: the only children it may execute.
	References []string `json:"references"`
	Config     Sections `json:"config"`
	// OAuthMCPs are the MCP servers the workflow declares with oauth: the
	// runtime has the agent host check their logins before a child's run
	// body, and contacts no host for a workflow without any.
	OAuthMCPs []string `json:"oauthMcps"`
}

// Sections are a workflow.yaml's runtime sections as parsed; the runtime
// merges invocation overrides over them.
type Sections struct {
	Agents   any `json:"agents"`
	Decision any `json:"decision"`
}

// Table describes every valid workflow of the root, by name. Call it after
// Prepare.
func (t *Target) Table() map[string]TableEntry {
	closure := map[*discovery.Workflow]bool{}
	t.walkClosure(func(w *discovery.Workflow, found bool) {
		if found {
			closure[w] = true
		}
	})
	table := make(map[string]TableEntry, len(t.Root.Workflows))
	for name, w := range t.Root.Workflows {
		entry := TableEntry{
			Dir: w.Dir, Entry: compiledEntry(w), Built: closure[w], References: []string{},
			Config:    Sections{Agents: w.Manifest.Sections["agents"], Decision: w.Manifest.Sections["decision"]},
			OAuthMCPs: oauthServers(w),
		}
		if closure[w] {
			entry.References = append(entry.References, w.Sources.References...)
		}
		table[name] = entry
	}
	return table
}

// BuildKeys are the build records' keys of the workflow and every workflow
// it imports, by name: what a run's journal header keeps, so that a resume
// can tell which workflows' code changed since. Call it after Prepare. A
// record that cannot be read has the key "" (it never equals a real one).
func (t *Target) BuildKeys() map[string]string {
	keys := map[string]string{}
	t.walkClosure(func(w *discovery.Workflow, found bool) {
		if !found {
			return
		}
		keys[w.Manifest.Name] = ""
		if rec, err := freshness.ReadRecord(w.Dir); err == nil && rec != nil {
			keys[w.Manifest.Name] = rec.Key
		}
	})
	return keys
}
