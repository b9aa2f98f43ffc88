package claudecode

import "encoding/json"

// What the host writes to the CLI's stdin, one typed definition per line
// and answer (frames.go decodes what the CLI writes back). Every field
// here is one the CLI reads: a misspelt key is silently ignored by it, so
// the keys live in one place and the wire test pins them.

// userFrame is the stdin line of one prompt. The uuid makes the CLI stamp
// the turn's result with user_message_uuids.
type userFrame struct {
	Type            string      `json:"type"` // "user"
	UUID            string      `json:"uuid"`
	SessionID       string      `json:"session_id"`
	ParentToolUseID *string     `json:"parent_tool_use_id"` // always null: a prompt of ours answers no tool
	Message         userContent `json:"message"`
}

type userContent struct {
	Role    string `json:"role"` // "user"
	Content string `json:"content"`
}

func userMessage(t *turn, prompt string) userFrame {
	return userFrame{Type: "user", UUID: t.uuid, Message: userContent{Role: "user", Content: prompt}}
}

// hostRequest is a host → CLI control request; subtype names it in errors.
type hostRequest interface{ subtype() string }

type initializeRequest struct {
	Subtype      string                   `json:"subtype"` // "initialize"
	Hooks        map[string][]hookMatcher `json:"hooks"`
	SystemPrompt []string                 `json:"systemPrompt"`
	JSONSchema   json.RawMessage          `json:"jsonSchema,omitempty"`
}

// hookMatcher registers callbacks for the tools its matcher matches.
type hookMatcher struct {
	Matcher         string   `json:"matcher"`
	HookCallbackIDs []string `json:"hookCallbackIds"`
	Timeout         int      `json:"timeout"`   // seconds
	OnFailure       string   `json:"onFailure"` // "block": a failed or timed-out callback blocks the tool
}

// simpleRequest is a control request with no fields but its subtype
// (interrupt).
type simpleRequest struct {
	Subtype string `json:"subtype"`
}

type stopTaskRequest struct {
	Subtype string `json:"subtype"` // "stop_task"
	TaskID  string `json:"task_id"`
}

func (r initializeRequest) subtype() string { return r.Subtype }
func (r simpleRequest) subtype() string     { return r.Subtype }
func (r stopTaskRequest) subtype() string   { return r.Subtype }

// interrupt asks the CLI to end its turn.
func interrupt() simpleRequest { return simpleRequest{Subtype: "interrupt"} }

type controlRequestFrame struct {
	Type      string      `json:"type"` // "control_request"
	RequestID string      `json:"request_id"`
	Request   hostRequest `json:"request"`
}

// controlResponseFrame answers a CLI → host control request: success with
// a response (an empty object when there is nothing to say), or an error.
type controlResponseFrame struct {
	Type     string       `json:"type"` // "control_response"
	Response responseBody `json:"response"`
}

type responseBody struct {
	Subtype   string `json:"subtype"` // "success" or "error"
	RequestID string `json:"request_id"`
	Response  any    `json:"response,omitempty"`
	Error     string `json:"error,omitempty"`
}

// hookOutput is a hook callback's answer. Continue is set (false) only to
// stop the turn.
type hookOutput struct {
	Continue   *bool         `json:"continue,omitempty"`
	StopReason string        `json:"stopReason,omitempty"`
	Specific   *hookSpecific `json:"hookSpecificOutput,omitempty"`
}

// hookSpecific is the part of a hook's answer its event reads: a
// permission decision (PreToolUse), a replaced tool output (PostToolUse),
// or context added for the model (PostToolUseFailure).
type hookSpecific struct {
	HookEventName            string          `json:"hookEventName"`
	PermissionDecision       string          `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string          `json:"permissionDecisionReason,omitempty"`
	UpdatedInput             json.RawMessage `json:"updatedInput,omitempty"`
	UpdatedToolOutput        any             `json:"updatedToolOutput,omitempty"`
	AdditionalContext        string          `json:"additionalContext,omitempty"`
}

// stopTurn is the answer that stops the turn because the author's hook
// (beforeToolCall, afterToolCall) failed.
func stopTurn(hook string, specific *hookSpecific) hookOutput {
	stop := false
	return hookOutput{Continue: &stop, StopReason: "a Stratos " + hook + " hook failed", Specific: specific}
}

// permissionAllow answers can_use_tool: allowed, with the input unchanged
// (the CLI requires it).
type permissionAllow struct {
	Behavior     string          `json:"behavior"` // "allow"
	UpdatedInput json.RawMessage `json:"updatedInput"`
}

// elicitationDecline answers an MCP server's elicitation: declined.
type elicitationDecline struct {
	Action string `json:"action"` // "decline"
}
