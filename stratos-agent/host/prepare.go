package host

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/jsonvalidate"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
	"github.com/stratoscli/stratos/stratos-agent/agentconfig"
	"github.com/stratoscli/stratos/stratos-agent/prompt"
)

// prepared is an agent whose configuration has been resolved and whose
// adapter exists; it is fixed for the object's lifetime.
type prepared struct {
	config    agentproto.AgentConfig
	workflow  *agentconfig.Workflow
	overrides map[string]agentproto.AgentConfig
	adapter   adapter.Adapter
	selection *selector            // the same adapter: which harness serves it
	schema    *jsonvalidate.Schema // nil without outputSchema
	hooks     *sdkHooks
}

// prepare resolves the configuration of the agent that p executes, renders
// its system prompt and makes its adapter. Nothing is started yet.
func (h *Host) prepare(ctx context.Context, s *session, p agentproto.ExecuteParams) (*prepared, error) {
	wf, err := h.workflow(p.Workflow)
	if err != nil {
		return nil, err
	}
	cfg, err := h.validator.Resolve(agentconfig.Sources{Workflow: wf, Overrides: p.Overrides, Creation: p.Config, Label: s.label})
	if err != nil {
		return nil, err
	}
	if err := refuseRealHarness(h.testCase, cfg, wf.Name, s.name); err != nil {
		return nil, err
	}
	overrides, _ := h.validator.Overrides(p.Overrides) // validated by Resolve
	acp, err := h.acpAgent(cfg.ACP, s.name)
	if err != nil {
		return nil, err
	}
	spec := adapter.Spec{AgentID: s.id, Name: s.name, ConfigID: cfg.ConfigID, Label: s.label, ExecutionID: s.executionID, WorkflowDir: wf.Dir, Test: cfg.Test, ACP: acp, OutputSchema: p.OutputSchema}
	if cfg.Harness != nil {
		spec.Harness = *cfg.Harness
		if _, ok := h.harnesses[spec.Harness]; !ok {
			return nil, h.unavailable(spec.Harness, s.name)
		}
	}
	if cfg.Provider != nil {
		spec.Provider = *cfg.Provider
	}
	if cfg.Model != nil {
		spec.Models = *cfg.Model
	}
	if cfg.Effort != nil {
		spec.Effort = *cfg.Effort
	}
	if cfg.AllowedMcps != nil {
		spec.AllowedMcps = *cfg.AllowedMcps
	}
	if cfg.AllowedTools != nil {
		spec.Tools.AllowedTools = *cfg.AllowedTools
	}
	if cfg.DisallowedTools != nil {
		spec.Tools.DisallowedTools = *cfg.DisallowedTools
	}
	if err := h.checkTools(s.name, spec); err != nil {
		return nil, err
	}
	if spec.WorkingDirectory, err = workingDirectory(cfg.WorkingDirectory, p.Cwd, s.name); err != nil {
		return nil, err
	}
	if spec.SystemPrompt, err = systemPrompt(cfg, wf.Dir); err != nil {
		return nil, err
	}
	var schema *jsonvalidate.Schema
	if len(p.OutputSchema) > 0 {
		if schema, err = resolveSchema(p.OutputSchema, s.name); err != nil {
			return nil, err
		}
	}
	if wt := cfg.Worktree; wt != nil && wt.Enabled {
		// Last, so that a configuration error found above creates nothing.
		got, err := h.worktrees.acquire(ctx, s, spec.WorkingDirectory, s.resumedWorktree(*wt))
		if err != nil {
			return nil, err
		}
		spec.WorkingDirectory, spec.HarnessContext = got.Path, got.HarnessContext
		s.noteWorktree(got.Name)
	}
	k := &sdkHooks{peer: h.peer, agentID: s.id, executionID: s.executionID, name: s.name, has: map[string]bool{}}
	for _, name := range p.Hooks {
		k.has[name] = true
	}
	a, err := h.newAdapter(ctx, spec, s, k)
	if err != nil {
		return nil, err
	}
	return &prepared{config: cfg, workflow: wf, overrides: overrides, adapter: a, selection: a, schema: schema, hooks: k}, nil
}

// newAdapter makes the session's adapter: a selector over the configured
// harness's models in order, or, without an explicit harness, over the
// catalog's candidates for the model list. Only a provider the user wrote
// reaches the adapter as explicit.
func (h *Host) newAdapter(ctx context.Context, spec adapter.Spec, s *session, k *sdkHooks) (*selector, error) {
	cands, err := h.candidatesOf(ctx, spec, s.name)
	if err != nil {
		return nil, err
	}
	open := func(c candidate) (adapter.Adapter, error) {
		reg, ok := h.harnesses[c.Harness]
		if !ok {
			return nil, h.unavailable(c.Harness, s.name)
		}
		cs := spec
		cs.Harness, cs.Models = c.Harness, nil
		if c.Model != "" {
			cs.Models = []string{c.Model}
		}
		if err := h.sessionSpec(s, reg, &cs); err != nil {
			return nil, err
		}
		return reg.New(cs, pricedUsage(h.turnPriceOf(c), s.onAdapterEvent), k)
	}
	return &selector{name: s.name, cands: cands, open: open, emit: s.onAdapterEvent}, nil
}

func (h *Host) candidatesOf(ctx context.Context, spec adapter.Spec, name string) ([]candidate, error) {
	if err := checkProvider(spec, h.ollamaHarnesses()); err != nil {
		return nil, err
	}
	if spec.Harness != "" {
		cands := h.priced(ctx, explicitCandidates(spec.Harness, spec.Models), spec.Provider)
		return h.consultNative(ctx, name, spec.Provider, withNativeNames(cands, spec.Provider))
	}
	if len(spec.Models) == 0 {
		return nil, agentproto.Errorf(agentproto.CodeConfiguration,
			"agent %q has neither a harness nor a model: set model (a list of canonical model IDs such as anthropic/claude-sonnet-4-5) or harness", name)
	}
	if spec.Provider != "" {
		return nil, agentproto.Errorf(agentproto.CodeConfiguration,
			"agent %q sets provider %q without a harness: choose the harness explicitly (provider-native models have no automatic harness preference)", name, spec.Provider)
	}
	cands, err := h.candidates(ctx, spec.Models)
	if err != nil {
		return nil, err
	}
	if len(cands) == 0 {
		return nil, agentproto.Errorf(agentproto.CodeModelUnavailable, "agent %q: no harness can serve models %s (see stratos models candidates)", name, strings.Join(spec.Models, ", "))
	}
	return h.consultNative(ctx, name, "", cands)
}

func (h *Host) unavailable(harness, agent string) error {
	return rejection.New(rejection.HarnessUnavailable, "harness %q of agent %q is not available in this version of Stratos (available: %s)", harness, agent, strings.Join(h.harnessNames(), ", ")).
		WithDetails(map[string]any{"harness": harness})
}

func (h *Host) harnessNames() []string {
	return slices.Sorted(maps.Keys(h.harnesses))
}

// workingDirectory resolves the agent's directory: relative paths against
// the invocation directory, which is also the default.
func workingDirectory(wd *string, cwd, name string) (string, error) {
	dir := cwd
	if wd != nil {
		dir = *wd
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(cwd, dir)
		}
	}
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return "", agentproto.Errorf(agentproto.CodeConfiguration, "agent %q: workingDirectory %s is not a directory (relative paths resolve against the invocation directory %s)", name, dir, cwd).
			WithDetails(map[string]any{"workingDirectory": dir})
	}
	return dir, nil
}

// systemPrompt renders the system prompt once, at initialization.
func systemPrompt(cfg agentproto.AgentConfig, root string) (string, error) {
	if cfg.SystemPrompt == nil {
		return "", nil
	}
	txt, err := prompt.Load(*cfg.SystemPrompt, root)
	if err != nil {
		return "", err
	}
	var vars map[string]json.RawMessage
	if cfg.TemplateVariables != nil {
		vars = cfg.TemplateVariables.SystemPrompt
	}
	return txt.Render("systemPrompt", vars)
}

// userPrompt prepares the prompt of one execute: the source (or, for
// {configId}, that configuration's prompt) rendered with the agent's
// templateVariables.prompt, the configuration's, then execute's own, each
// replacing variables of the one before.
func userPrompt(pr *prepared, src agentproto.PromptSource, extra map[string]json.RawMessage) (string, error) {
	var vars map[string]json.RawMessage
	if tv := pr.config.TemplateVariables; tv != nil {
		vars = tv.Prompt
	}
	if id := src.ConfigID; id != "" {
		named, ok := pr.workflow.Agents[id]
		if !ok {
			return "", agentproto.Errorf(agentproto.CodeConfiguration, "execute({configId: %q}): %s declares no agent %q", id, pr.workflow.File, id)
		}
		named = agentconfig.Merge(named, pr.overrides[id])
		if named.Prompt == nil {
			return "", agentproto.Errorf(agentproto.CodeConfiguration, "execute({configId: %q}): configuration %q has no prompt", id, id)
		}
		src = *named.Prompt
		if named.TemplateVariables != nil {
			vars = agentconfig.MergeVars(vars, named.TemplateVariables.Prompt)
		}
	}
	if src.Kind() == "" {
		return "", agentproto.Errorf(agentproto.CodeConfiguration, "execute(): the prompt is empty")
	}
	txt, err := prompt.Load(src, pr.workflow.Dir)
	if err != nil {
		return "", err
	}
	return txt.Render("prompt", agentconfig.MergeVars(vars, extra))
}

// resolveSchema compiles the output schema before the agent runs, so that
// a schema that cannot check anything is the caller's configuration error,
// not a failure of the agent's reply.
func resolveSchema(raw json.RawMessage, name string) (*jsonvalidate.Schema, error) {
	s, err := jsonvalidate.Compile(raw)
	if err != nil {
		return nil, agentproto.Errorf(agentproto.CodeConfiguration, "agent %q: outputSchema: %v", name, err)
	}
	return s, nil
}

// checkOutput validates a structured reply against the output schema. A
// mismatch names every failing field, sorted by path, in the message and as
// details.issues ([{path, message}]), the shape the SDK's own Zod check uses.
func checkOutput(schema *jsonvalidate.Schema, value json.RawMessage, name string) error {
	var v any
	if err := json.Unmarshal(value, &v); err != nil {
		return agentproto.Errorf(agentproto.CodeStructuredOutput, "agent %q returned structured output that is not JSON: %v", name, err)
	}
	if issues := schema.Validate(value); issues != nil {
		return agentproto.Errorf(agentproto.CodeStructuredOutput, "agent %q returned output that does not match its outputSchema: %s", name, jsonvalidate.Text(issues)).
			WithDetails(map[string]any{"value": v, "issues": issues})
	}
	return nil
}
