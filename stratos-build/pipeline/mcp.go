package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

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

// prepareMCP is preparation step 3: it discovers the tools of w's declared
// MCP servers and writes generated/mcp/<server>.ts for each. Explicit builds
// rediscover every declared server every time (a server's tools change
// without any file of ours changing); other preparations only generate
// wrappers that are missing. Wrappers of servers no longer declared are
// removed.
func (b *Builder) prepareMCP(ctx context.Context, w *discovery.Workflow) (mcpStep, *Result) {
	servers, problems := mcpdecl.Parse(w.Manifest.Sections["mcp"])
	file := filepath.Join(w.Dir, manifest.FileName)
	if len(problems) > 0 {
		diags := make([]Diagnostic, len(problems))
		for i, p := range problems {
			diags[i] = Diagnostic{File: file, Message: file + ": " + p.String()}
		}
		return mcpStep{}, failed(w, ReasonMCPConfig, diags...)
	}
	step := mcpStep{servers: servers}
	removed, err := removeUndeclaredWrappers(w.Dir, servers)
	if err != nil {
		return step, failed(w, ReasonMCP, message("%v", err))
	}
	step.changed = removed
	names := servers.Names()
	if !b.Explicit {
		names = missingWrappers(w.Dir, names)
	}
	if len(names) == 0 {
		return step, nil
	}
	b.enter(PhaseMCP, w)
	b.Log.Info("discovering MCP tools", "workflow", w.Manifest.Name, "servers", strings.Join(names, ","))
	found, err := mcpclient.Discover(ctx, w.Dir, servers, names, os.LookupEnv, mcpclient.Options{Stderr: b.Stderr, Workflow: w.Manifest.Name})
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
