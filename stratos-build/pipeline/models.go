package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"sort"

	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/ollama"
)

// ReasonModelsUnavailable: an explicit build found a model declared in
// workflow.yaml that the local provider cannot serve.
const ReasonModelsUnavailable = "models-unavailable"

// checkDeclaredModels is the explicit build's check of the Ollama models
// the agents section declares: every one installed on the server of
// OLLAMA_HOST and able to serve an agent, read from the inventory as the
// agent host reads it at run time. Overrides and createAgent settings are
// dynamic and not checked here.
func checkDeclaredModels(ctx context.Context, w *discovery.Workflow) *Result {
	names := declaredOllamaModels(w.Manifest.Sections["agents"])
	if len(names) == 0 {
		return nil
	}
	host, err := ollama.HostFromEnv(os.Getenv)
	if err == nil {
		_, err = ollama.Client{Host: host}.Ready(ctx, names)
	}
	if err == nil || ctx.Err() != nil {
		return nil // an interruption is reported by the builder's caller
	}
	file := filepath.Join(w.Dir, "workflow.yaml")
	return failed(w, ReasonModelsUnavailable, Diagnostic{File: file,
		Message: sprintf("%s: agents with provider ollama: %v", file, err)})
}

// declaredOllamaModels are the model names of the agents whose provider is
// ollama, each once, in agent-name order then list order.
func declaredOllamaModels(section any) []string {
	agents, _ := section.(map[string]any)
	ids := make([]string, 0, len(agents))
	for id := range agents {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	seen := map[string]bool{}
	var out []string
	for _, id := range ids {
		a, _ := agents[id].(map[string]any)
		if a["provider"] != ollama.Provider {
			continue
		}
		for _, m := range modelList(a["model"]) {
			if !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	return out
}

// modelList reads model: a name or a list of names.
func modelList(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}
