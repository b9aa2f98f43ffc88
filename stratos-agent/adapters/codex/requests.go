package codex

import (
	"encoding/json"
	"fmt"
)

// onServerRequest answers the app-server's requests. Agents run
// noninteractively: approvals are granted (the author's hooks have already
// decided), questions for a user get no answer content, and anything
// unknown is refused so the turn does not wait forever.
func (s *session) onServerRequest(method string, params json.RawMessage) (any, error) {
	switch method {
	case "item/commandExecution/requestApproval", "item/fileChange/requestApproval":
		return map[string]any{"decision": "accept"}, nil
	case "execCommandApproval", "applyPatchApproval":
		return map[string]any{"decision": "approved"}, nil
	case "item/permissions/requestApproval":
		var p struct {
			Permissions json.RawMessage `json:"permissions"`
		}
		_ = json.Unmarshal(params, &p)
		return map[string]any{"permissions": rawOrEmpty(p.Permissions), "scope": "turn"}, nil
	case "mcpServer/elicitation/request":
		return elicitationAnswer(params), nil
	case "item/tool/requestUserInput":
		return map[string]any{"answers": map[string]any{}}, nil
	}
	s.log.Debug("refusing an unknown codex request", "method", method)
	return nil, fmt.Errorf("stratos does not handle %s", method)
}

// elicitationAnswer accepts MCP tool-call approvals (Codex asks them as
// elicitations) and declines genuine elicitations, which need a user.
func elicitationAnswer(params json.RawMessage) map[string]any {
	var p struct {
		Meta struct {
			Kind string `json:"codex_approval_kind"`
		} `json:"_meta"`
	}
	_ = json.Unmarshal(params, &p)
	if p.Meta.Kind == "mcp_tool_call" {
		return map[string]any{"action": "accept", "content": map[string]any{}, "_meta": nil}
	}
	return map[string]any{"action": "decline", "content": nil, "_meta": nil}
}

func rawOrEmpty(raw json.RawMessage) any {
	if len(raw) == 0 {
		return map[string]any{}
	}
	return raw
}
