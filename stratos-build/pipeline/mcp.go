package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/atomicfile"
	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/manifest"
	"github.com/stratoscli/stratos/shared/mcpclient"
	"github.com/stratoscli/stratos/shared/mcpdecl"
	"github.com/stratoscli/stratos/stratos-build/wrappergen"
)

// mcpStep is the outcome of preparing a workflow's MCP wrappers.
type mcpStep struct {
	servers mcpdecl.Servers
	// changed is true when a wrapper was written with new content or
	// removed: the workflow's compiled output no longer matches its types.
	changed bool
}

// mcp is preparation step 3: it discovers the tools of w's declared
// MCP servers and writes generated/mcp/<server>.ts for each. Explicit builds
// rediscover every declared server every time (a server's tools change
// without any file of ours changing); other preparations only generate
// wrappers that are missing. Wrappers of servers no longer declared are
// removed.
func (p *preparer) mcp(ctx context.Context, w *discovery.Workflow) (mcpStep, *Result) {
	servers, problems := mcpdecl.Parse(w.Manifest.Sections["mcp"])
	file := filepath.Join(w.Dir, manifest.FileName)
	if len(problems) > 0 {
		diags := make([]Diagnostic, len(problems))
		for i, problem := range problems {
			diags[i] = Diagnostic{File: file, Message: file + ": " + problem.String()}
		}
		return mcpStep{}, failed(w, ReasonMCPConfig, diags...)
	}
	step := mcpStep{servers: servers}
	removed, err := removeUndeclaredWrappers(w.Dir, servers)
	if err != nil {
		return step, failed(w, ReasonMCP, message("%v", err))
	}
	step.changed = removed
	names := serversToDiscover(w, servers, p.explicit)
	if len(names) == 0 {
		return step, nil
	}
	found, err := p.discoverMCP(ctx, w, servers, names)
	if err != nil {
		return step, failed(w, ReasonMCP, Diagnostic{File: file, Message: fmt.Sprintf("%s: %v", w.Manifest.Name, err)})
	}
	for _, st := range found {
		changed, err := writeMCPWrapper(w, st)
		if err != nil {
			return step, failed(w, ReasonMCP, Diagnostic{File: file, Message: fmt.Sprintf("%s: %v", w.Manifest.Name, err)})
		}
		step.changed = step.changed || changed
	}
	return step, nil
}

// serversToDiscover names the servers of w whose tools a preparation
// lists: every declared one for an explicit build, else those without a
// wrapper.
func serversToDiscover(w *discovery.Workflow, servers mcpdecl.Servers, explicit bool) []string {
	if explicit {
		return servers.Names()
	}
	return missingWrappers(w.Dir, servers.Names())
}

// discoverMCP lists the tools of the named servers of w, taking what was
// discovered ahead, before the root lock (see discoverMCPAhead), for a
// declaration that has not changed since, and discovering the rest now.
func (p *preparer) discoverMCP(ctx context.Context, w *discovery.Workflow, servers mcpdecl.Servers, names []string) ([]mcpclient.ServerTools, error) {
	out := make([]mcpclient.ServerTools, 0, len(names))
	for _, name := range names {
		f, ok := p.mcpAhead.take(w.Dir, servers[name])
		if !ok {
			p.progress.enter(ctx, PhaseMCP, w)
			f = discoverServer(ctx, w, servers, name, p.log, p.stderr)
		}
		if f.err != nil {
			return nil, f.err
		}
		out = append(out, f.tools)
	}
	return out, nil
}

// mcpDiscovered holds the outcome of discovering MCP servers before the root
// lock, by workflow directory and server, with the declaration discovered.
type mcpDiscovered map[mcpKey]mcpFound

type mcpKey struct{ dir, server string }

type mcpFound struct {
	decl  mcpdecl.Server
	tools mcpclient.ServerTools
	err   error
}

// take returns what was discovered ahead for decl of the workflow in dir,
// if its declaration is still the one discovered.
func (a mcpDiscovered) take(dir string, decl mcpdecl.Server) (mcpFound, bool) {
	f, ok := a[mcpKey{dir, decl.Name}]
	if !ok || !reflect.DeepEqual(f.decl, decl) {
		return mcpFound{}, false
	}
	return f, true
}

// discoverMCPAhead discovers, before the root's build lock is taken, the
// MCP servers that preparing ws will list (see serversToDiscover).
// Discovery writes nothing, and a server may take up to its connect
// timeout to answer or never answer: holding the lock meanwhile would make
// every other build of the root wait for it. The wrappers are written
// later, under the lock, from what this found. Failures are kept for the
// workflow's result; an interruption is returned (exit 130).
func discoverMCPAhead(ctx context.Context, ws []*discovery.Workflow, explicit bool, log hclog.Logger, stderr io.Writer) (mcpDiscovered, error) {
	ahead := mcpDiscovered{}
	for _, w := range ws {
		servers, problems := mcpdecl.Parse(w.Manifest.Sections["mcp"])
		if len(problems) > 0 {
			continue // the preparation reports them
		}
		for _, name := range serversToDiscover(w, servers, explicit) {
			f := discoverServer(ctx, w, servers, name, log, stderr)
			if ctx.Err() != nil {
				ce := Interrupted(ctx, PhaseMCP, "workflow %s, MCP server %s", w.Manifest.Name, name)
				ce.Details["workflow"], ce.Details["server"] = w.Manifest.Name, name
				return nil, ce
			}
			ahead[mcpKey{w.Dir, name}] = f
			if f.err != nil {
				break // the workflow fails on it; its other servers are not needed
			}
		}
	}
	return ahead, nil
}

// discoverServer lists the tools of one declared server of w.
func discoverServer(ctx context.Context, w *discovery.Workflow, servers mcpdecl.Servers, name string, log hclog.Logger, stderr io.Writer) mcpFound {
	log.Info("discovering MCP tools", "workflow", w.Manifest.Name, "server", name)
	f := mcpFound{decl: servers[name]}
	found, err := mcpclient.Discover(ctx, w.Dir, servers, []string{name}, os.LookupEnv, mcpclient.Options{Stderr: stderr, Workflow: w.Manifest.Name})
	if err != nil {
		f.err = err
		return f
	}
	f.tools = found[0]
	return f
}

// writeMCPWrapper generates one server's wrapper and replaces the file
// atomically when its content differs; it reports whether it did.
func writeMCPWrapper(w *discovery.Workflow, st mcpclient.ServerTools) (bool, error) {
	server := wrappergen.MCPServer{Workflow: w.Manifest.Name, Name: st.Server}
	for _, t := range st.Tools {
		in, err := json.Marshal(t.InputSchema)
		if err != nil {
			return false, fmt.Errorf("MCP server %q, tool %q: input schema: %w", st.Server, t.Name, err)
		}
		tool := wrappergen.MCPTool{Name: t.Name, Description: t.Description, Input: in}
		if t.OutputSchema != nil {
			if tool.Output, err = json.Marshal(t.OutputSchema); err != nil {
				return false, fmt.Errorf("MCP server %q, tool %q: output schema: %w", st.Server, t.Name, err)
			}
		}
		server.Tools = append(server.Tools, tool)
	}
	src, err := wrappergen.GenerateMCP(server)
	if err != nil {
		return false, err
	}
	target := filepath.Join(w.Dir, filepath.FromSlash(wrappergen.MCPFileName(st.Server)))
	if old, err := os.ReadFile(target); err == nil && bytes.Equal(old, src) {
		return false, nil
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return false, err
	}
	return true, atomicfile.WriteFile(target, src, atomicfile.Public)
}

func missingWrappers(dir string, names []string) []string {
	var out []string
	for _, n := range names {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(wrappergen.MCPFileName(n)))); err != nil {
			out = append(out, n)
		}
	}
	return out
}

// removeUndeclaredWrappers deletes generated MCP wrappers whose server is no
// longer declared, so an import of one fails to compile instead of using
// stale types. Files Stratos did not generate are kept.
func removeUndeclaredWrappers(dir string, servers mcpdecl.Servers) (bool, error) {
	gen := filepath.Join(dir, "generated", "mcp")
	entries, err := os.ReadDir(gen)
	if err != nil {
		return false, nil
	}
	removed := false
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".ts")
		if _, declared := servers[name]; !ok || declared || e.IsDir() {
			continue
		}
		if p := filepath.Join(gen, e.Name()); IsGeneratedWrapper(p) {
			if err := os.Remove(p); err != nil {
				return removed, fmt.Errorf("remove the wrapper of undeclared MCP server %s: %w", name, err)
			}
			removed = true
		}
	}
	return removed, nil
}
