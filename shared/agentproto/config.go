package agentproto

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// AgentConfig is one agent configuration as it crosses the protocol: the
// fields of createAgent({...}), of one invocation override
// (overrides.agents[configId]) and of one workflow.yaml agents entry alike.
//
// Pointers and pointer-to-slices distinguish "not supplied" (nil) from a
// supplied value: a supplied list replaces the lower-priority one, and an
// empty list means none.
type AgentConfig struct {
	// ConfigID selects the named configuration (creation only).
	ConfigID          string             `json:"configId,omitempty"`
	Harness           *string            `json:"harness,omitempty"`
	Provider          *string            `json:"provider,omitempty"`
	Model             *ModelList         `json:"model,omitempty"`
	Effort            *string            `json:"effort,omitempty"`
	SystemPrompt      *PromptSource      `json:"systemPrompt,omitempty"`
	Prompt            *PromptSource      `json:"prompt,omitempty"`
	TemplateVariables *TemplateVariables `json:"templateVariables,omitempty"`
	AllowedMcps       *[]string          `json:"allowedMcps,omitempty"`
	AllowedTools      *[]string          `json:"allowedTools,omitempty"`
	DisallowedTools   *[]string          `json:"disallowedTools,omitempty"`
	WorkingDirectory  *string            `json:"workingDirectory,omitempty"`
	Worktree          *Worktree          `json:"worktree,omitempty"`
	// StructuredOutputRetries is how many times the host sends a
	// structured output's validation errors back to the agent, in the same
	// conversation, before the call fails (harnesses without a native retry).
	StructuredOutputRetries *int `json:"structuredOutputRetries,omitempty"`
	// Test is the script of the test harness: inline, or {"file": path}.
	Test json.RawMessage `json:"test,omitempty"`
	// ACP is the agent the acp harness runs: any agent that speaks the
	// Agent Client Protocol on its stdin and stdout, given whole or by
	// the name the machine's ~/.stratos/settings.json gives it.
	ACP *ACPRef `json:"acp,omitempty"`
}

// ACPRef is the acp field: the program given whole (Agent), or the name
// of one the machine's ~/.stratos/settings.json declares under acpAgents
// (Name), so that a workflow can say "qwen" and each machine say where
// its Qwen Code is and which credential it reads. In JSON it is the
// ACPAgent object or the name as a string.
type ACPRef struct {
	Name  string
	Agent *ACPAgent
}

// MarshalJSON writes the object or the name.
func (r ACPRef) MarshalJSON() ([]byte, error) {
	if r.Agent != nil {
		return json.Marshal(r.Agent)
	}
	return json.Marshal(r.Name)
}

// UnmarshalJSON reads a name (a non-empty string) or an ACPAgent object.
func (r *ACPRef) UnmarshalJSON(b []byte) error {
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '"' {
		var name string
		if err := json.Unmarshal(t, &name); err != nil {
			return err
		}
		if name == "" {
			return fmt.Errorf("acp must be an object or the non-empty name of an ACP agent in settings.json")
		}
		*r = ACPRef{Name: name}
		return nil
	}
	var a ACPAgent
	if err := json.Unmarshal(b, &a); err != nil {
		return err
	}
	*r = ACPRef{Agent: &a}
	return nil
}

// ACPAgent is the program the acp harness starts for each session of an
// agent. Env values may reference the host's environment as ${NAME} (a
// credential stays out of the workflow's files); the program sees PATH,
// the locale, a private HOME and these variables, nothing else of the
// user's environment.
type ACPAgent struct {
	// Command is the program: a name looked up on PATH, or a path
	// (relative to the workflow directory when it has a slash).
	Command string `json:"command"`
	// Args are its arguments, e.g. ["--acp"].
	Args []string `json:"args,omitempty"`
	// Env are variables set for it, by name.
	Env map[string]string `json:"env,omitempty"`
	// AuthMethod is the ACP auth method to authenticate with when the
	// agent offers it (Gemini CLI's "gemini-api-key"); "" authenticates
	// with none.
	AuthMethod string `json:"authMethod,omitempty"`
	// SystemPromptFileVar names the variable through which the agent reads
	// its system prompt from a file (Gemini CLI's GEMINI_SYSTEM_MD): the
	// harness writes the agent's system prompt and worktree context to a
	// private file and sets the variable to its path. ACP has no system
	// prompt of its own, so without it an agent with either is refused.
	SystemPromptFileVar string `json:"systemPromptFileVar,omitempty"`
}

// ModelList is an ordered list of preferred model IDs; a single string is a
// list of one.
type ModelList []string

// UnmarshalJSON accepts a string or an array of strings.
func (m *ModelList) UnmarshalJSON(b []byte) error {
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '"' {
		var s string
		if err := json.Unmarshal(t, &s); err != nil {
			return err
		}
		*m = ModelList{s}
		return nil
	}
	var list []string
	if err := json.Unmarshal(b, &list); err != nil {
		return fmt.Errorf("model must be a string or an array of strings")
	}
	if list == nil {
		list = []string{}
	}
	*m = list
	return nil
}

// TemplateVariables holds the variable dictionaries of each template field.
type TemplateVariables struct {
	SystemPrompt map[string]json.RawMessage `json:"systemPrompt,omitempty"`
	Prompt       map[string]json.RawMessage `json:"prompt,omitempty"`
}

// Worktree is the agent's worktree setting.
type Worktree struct {
	Enabled bool    `json:"enabled"`
	Name    *string `json:"name,omitempty"`
	Cleanup *bool   `json:"cleanup,omitempty"`
}

// PromptSource is a literal string, {file}, {template} or (for execute's
// prompt only) {configId}. Exactly one form is set.
type PromptSource struct {
	Text     *string
	File     string
	Template string
	ConfigID string
}

// Kind names the form: "text", "file", "template" or "configId".
func (p PromptSource) Kind() string {
	switch {
	case p.Text != nil:
		return "text"
	case p.File != "":
		return "file"
	case p.Template != "":
		return "template"
	case p.ConfigID != "":
		return "configId"
	}
	return ""
}

// MarshalJSON writes the one form that is set.
func (p PromptSource) MarshalJSON() ([]byte, error) {
	switch p.Kind() {
	case "text":
		return json.Marshal(*p.Text)
	case "file":
		return json.Marshal(map[string]string{"file": p.File})
	case "template":
		return json.Marshal(map[string]string{"template": p.Template})
	case "configId":
		return json.Marshal(map[string]string{"configId": p.ConfigID})
	}
	return []byte("null"), nil
}

// UnmarshalJSON reads a string or an object with exactly one of file,
// template or configId (a non-empty string).
func (p *PromptSource) UnmarshalJSON(b []byte) error {
	*p = PromptSource{}
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '"' {
		var s string
		if err := json.Unmarshal(t, &s); err != nil {
			return err
		}
		p.Text = &s
		return nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil || obj == nil || len(obj) != 1 {
		return errPromptForm
	}
	for k, raw := range obj {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil || s == "" {
			return fmt.Errorf("prompt source %q must be a non-empty string", k)
		}
		switch k {
		case "file":
			p.File = s
		case "template":
			p.Template = s
		case "configId":
			p.ConfigID = s
		default:
			return errPromptForm
		}
	}
	return nil
}

var errPromptForm = fmt.Errorf(`a prompt must be a string, {"file": path}, {"template": path} or {"configId": id}`)
