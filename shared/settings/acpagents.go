package settings

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/stratoscli/stratos/shared/agentproto"
)

// acpAgentName is what a named ACP agent may be called: it is written in
// workflow.yaml files, so a plain word.
var acpAgentName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// envVarName is a variable name, as systemPromptFileVar must be.
var envVarName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// parseACPAgents reads acpAgents: {name: {command, args?, env?,
// authMethod?, systemPromptFileVar?}}. A command must be a name looked up
// on PATH or an absolute path: a relative path would depend on the
// directory of whichever workflow names the agent.
func parseACPAgents(path string, raw json.RawMessage) (map[string]agentproto.ACPAgent, error) {
	var entries map[string]json.RawMessage
	if err := decodeObject(raw, &entries); err != nil {
		return nil, invalid(path, "acpAgents", "%s: key \"acpAgents\" must be an object of named ACP agents", path)
	}
	agents := make(map[string]agentproto.ACPAgent, len(entries))
	for name, v := range entries {
		key := "acpAgents." + name
		if !acpAgentName.MatchString(name) {
			return nil, invalid(path, key, "%s: ACP agent name %q must start with a letter or digit and hold only letters, digits, '.', '_' and '-'", path, name)
		}
		a, err := parseACPAgent(v)
		if err != nil {
			return nil, invalid(path, key, "%s: key %q: %v", path, key, err)
		}
		agents[name] = a
	}
	return agents, nil
}

func parseACPAgent(raw json.RawMessage) (agentproto.ACPAgent, error) {
	var a agentproto.ACPAgent
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return a, fmt.Errorf("must be an object {command, args?, env?, authMethod?, systemPromptFileVar?}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return a, fmt.Errorf("%v (known: command, args, env, authMethod, systemPromptFileVar)", err)
	}
	switch {
	case a.Command == "":
		return a, fmt.Errorf("command is required")
	case strings.ContainsRune(a.Command, filepath.Separator) && !filepath.IsAbs(a.Command):
		return a, fmt.Errorf("command %q must be a name on PATH or an absolute path", a.Command)
	case a.SystemPromptFileVar != "" && !envVarName.MatchString(a.SystemPromptFileVar):
		return a, fmt.Errorf("systemPromptFileVar %q is not a variable name", a.SystemPromptFileVar)
	}
	return a, nil
}
