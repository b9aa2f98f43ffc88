package agentconfig

import (
	"encoding/json"
	"fmt"
	"maps"
	"strconv"
	"strings"

	"github.com/stratoscli/stratos/shared/agentproto"
)

// Sources are the three places an agent object's configuration comes from,
// lowest priority first.
type Sources struct {
	Workflow *Workflow
	// Overrides is the owning execution's overrides.agents (raw JSON).
	Overrides json.RawMessage
	// Creation is the createAgent fields (raw JSON).
	Creation json.RawMessage
	// Label is the agent's label: overrides of "configId#label" apply to
	// it, over those of its configId.
	Label string
}

// LabelSeparator joins a configId and a label in names and override
// targets ("judge#r1-3").
const LabelSeparator = "#"

// Resolve validates the overrides and creation fields and merges the
// sources field by field: creation > overrides of "configId#label" >
// overrides of configId > workflow.yaml. A supplied
// list replaces the lower one ([] means none); templateVariables merge per
// variable within systemPrompt and prompt, each value replaced whole; the
// worktree setting merges per field (enabled, name, cleanup).
// Errors are *agentproto.Error with code "configuration".
func (v *Validator) Resolve(src Sources) (agentproto.AgentConfig, error) {
	creation, err := v.decode(src.Creation, "createAgent", true)
	if err != nil {
		return agentproto.AgentConfig{}, err
	}
	overrides, err := v.Overrides(src.Overrides)
	if err != nil {
		return agentproto.AgentConfig{}, err
	}
	var out agentproto.AgentConfig
	if id := creation.ConfigID; id != "" {
		named, ok := src.Workflow.Agents[id]
		if !ok {
			return out, agentproto.Errorf(agentproto.CodeConfiguration, "unknown configId %q: %s declares no agent %q (declared: %s)",
				id, src.Workflow.File, id, list(keySet(src.Workflow.Agents))).
				WithDetails(map[string]any{"configId": id, "file": src.Workflow.File})
		}
		out = Merge(named, overrides[id])
		if src.Label != "" {
			out = Merge(out, overrides[id+LabelSeparator+src.Label])
		}
	}
	out = Merge(out, creation)
	out.ConfigID = creation.ConfigID
	problems := v.CheckReferences(out, src.Workflow.MCPServers, "", "agent")
	if p, ok := acpWithoutItsHarness(out); ok {
		problems = append(problems, p)
	}
	if len(problems) > 0 {
		return out, problemsError("the agent's configuration", problems)
	}
	return out, nil
}

// acpHarness is the harness that reads the acp field (stratos-agent's
// adapters/acpgeneric).
const acpHarness = "acp"

// acpWithoutItsHarness is the problem of an agent whose resolved
// configuration names an ACP agent for another harness, which would ignore
// it: only the resolved configuration can tell, since the field and the
// harness may come from different sources.
func acpWithoutItsHarness(c agentproto.AgentConfig) (Problem, bool) {
	if c.ACP == nil || (c.Harness != nil && *c.Harness == acpHarness) {
		return Problem{}, false
	}
	harness := "none (the harness is chosen from model, and never acp)"
	if c.Harness != nil {
		harness = strconv.Quote(*c.Harness)
	}
	return Problem{Path: "agent.acp", Message: fmt.Sprintf("only harness %s runs an ACP agent; the agent's harness is %s", acpHarness, harness)}, true
}

// Overrides validates and decodes an execution's overrides.agents payload
// ({"agents": {configId: partial configuration}}).
func (v *Validator) Overrides(raw json.RawMessage) (map[string]agentproto.AgentConfig, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var top struct {
		Agents map[string]json.RawMessage `json:"agents"`
	}
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, agentproto.Errorf(agentproto.CodeConfiguration, "invocation overrides: %v", err)
	}
	out := make(map[string]agentproto.AgentConfig, len(top.Agents))
	for id, entry := range top.Agents {
		c, err := v.decode(entry, "overrides.agents."+id, false)
		if err != nil {
			return nil, err
		}
		out[id] = c
	}
	return out, nil
}

// decode validates raw against the schema and decodes it.
func (v *Validator) decode(raw json.RawMessage, path string, configID bool) (agentproto.AgentConfig, error) {
	var c agentproto.AgentConfig
	if len(raw) == 0 || string(raw) == "null" {
		return c, nil
	}
	var generic any
	if err := json.Unmarshal(raw, &generic); err != nil {
		return c, agentproto.Errorf(agentproto.CodeConfiguration, "%s: %v", path, err)
	}
	if problems := v.Entry("", path, generic, configID); len(problems) > 0 {
		return c, problemsError(path, problems)
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return c, agentproto.Errorf(agentproto.CodeConfiguration, "%s: %v", path, err)
	}
	return c, nil
}

// Merge returns lower with every field that higher supplies replaced.
func Merge(lower, higher agentproto.AgentConfig) agentproto.AgentConfig {
	out := lower
	pick(&out.Harness, higher.Harness)
	pick(&out.Provider, higher.Provider)
	pick(&out.Model, higher.Model)
	pick(&out.Effort, higher.Effort)
	pick(&out.SystemPrompt, higher.SystemPrompt)
	pick(&out.Prompt, higher.Prompt)
	pick(&out.AllowedMcps, higher.AllowedMcps)
	pick(&out.AllowedTools, higher.AllowedTools)
	pick(&out.DisallowedTools, higher.DisallowedTools)
	pick(&out.WorkingDirectory, higher.WorkingDirectory)
	pick(&out.StructuredOutputRetries, higher.StructuredOutputRetries)
	out.Worktree = mergeWorktree(lower.Worktree, higher.Worktree)
	if len(higher.Test) > 0 {
		out.Test = higher.Test
	}
	pick(&out.ACP, higher.ACP)
	out.TemplateVariables = mergeVariables(lower.TemplateVariables, higher.TemplateVariables)
	return out
}

func pick[T any](dst **T, v *T) {
	if v != nil {
		*dst = v
	}
}

// mergeVariables merges per variable name within each template field; a
// supplied value replaces the lower one whole (no deep merge).
func mergeVariables(lower, higher *agentproto.TemplateVariables) *agentproto.TemplateVariables {
	if higher == nil {
		return lower
	}
	if lower == nil {
		return higher
	}
	return &agentproto.TemplateVariables{
		SystemPrompt: MergeVars(lower.SystemPrompt, higher.SystemPrompt),
		Prompt:       MergeVars(lower.Prompt, higher.Prompt),
	}
}

// MergeVars returns lower's variables with higher's on top.
func MergeVars(lower, higher map[string]json.RawMessage) map[string]json.RawMessage {
	if len(higher) == 0 {
		return lower
	}
	if len(lower) == 0 {
		return higher
	}
	out := maps.Clone(lower)
	maps.Copy(out, higher)
	return out
}

func problemsError(what string, problems []Problem) *agentproto.Error {
	lines := make([]string, len(problems))
	details := make([]map[string]any, len(problems))
	for i, p := range problems {
		lines[i] = p.String()
		details[i] = map[string]any{"path": p.Path, "message": p.Message}
	}
	return agentproto.Errorf(agentproto.CodeConfiguration, "invalid %s: %s", what, strings.Join(lines, "; ")).
		WithDetails(map[string]any{"problems": details})
}

func keySet[V any](m map[string]V) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

// String renders a resolved configuration for logs.
func String(c agentproto.AgentConfig) string {
	b, err := json.Marshal(c)
	if err != nil {
		return fmt.Sprint(err)
	}
	return string(b)
}
