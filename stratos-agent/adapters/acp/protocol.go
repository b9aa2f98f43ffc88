package acp

import "encoding/json"

// ProtocolVersion is the ACP version this client speaks. initialize
// offers it; an agent answering another version is refused.
const ProtocolVersion = 1

// ACP method names.
const (
	methodInitialize        = "initialize"
	methodAuthenticate      = "authenticate"
	methodSessionNew        = "session/new"
	methodSessionLoad       = "session/load"
	methodSessionSetModel   = "session/set_model"
	methodSessionPrompt     = "session/prompt"
	methodSessionCancel     = "session/cancel"
	methodSessionUpdate     = "session/update"
	methodRequestPermission = "session/request_permission"
)

type initializeRequest struct {
	ProtocolVersion    int                `json:"protocolVersion"`
	ClientCapabilities clientCapabilities `json:"clientCapabilities"`
	ClientInfo         implementation     `json:"clientInfo"`
}

// clientCapabilities: Stratos offers no file system and no terminal of
// its own, so the agent uses its own tools (which hooks govern).
type clientCapabilities struct {
	FS       fsCapabilities `json:"fs"`
	Terminal bool           `json:"terminal"`
}

type fsCapabilities struct {
	ReadTextFile  bool `json:"readTextFile"`
	WriteTextFile bool `json:"writeTextFile"`
}

type implementation struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type initializeResponse struct {
	ProtocolVersion   int               `json:"protocolVersion"`
	AgentCapabilities agentCapabilities `json:"agentCapabilities"`
	AuthMethods       []authMethod      `json:"authMethods"`
	AgentInfo         *implementation   `json:"agentInfo"`
}

// agentCapabilities are what the agent says it supports.
type agentCapabilities struct {
	LoadSession        bool `json:"loadSession"`
	PromptCapabilities struct {
		Image           bool `json:"image"`
		Audio           bool `json:"audio"`
		EmbeddedContext bool `json:"embeddedContext"`
	} `json:"promptCapabilities"`
	MCPCapabilities struct {
		HTTP bool `json:"http"`
		SSE  bool `json:"sse"`
	} `json:"mcpCapabilities"`
}

type authMethod struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type authenticateRequest struct {
	MethodID string `json:"methodId"`
}

type newSessionRequest struct {
	Cwd        string      `json:"cwd"`
	MCPServers []MCPServer `json:"mcpServers"`
}

// loadSessionRequest continues a session the agent recorded: it sends
// the stored history as session/update notifications, then answers with
// what session/new answers but the session ID (loadSessionResponse).
type loadSessionRequest struct {
	SessionID  string      `json:"sessionId"`
	Cwd        string      `json:"cwd"`
	MCPServers []MCPServer `json:"mcpServers"`
}

type loadSessionResponse struct {
	Models *sessionModels `json:"models"`
}

// MCPServer is one MCP server as session/new takes it: a stdio command
// (Command set) or an HTTP endpoint (Type "http", URL set).
type MCPServer struct {
	Type    string      `json:"type,omitempty"`
	Name    string      `json:"name"`
	Command string      `json:"command,omitempty"`
	Args    []string    `json:"args,omitempty"`
	Env     []nameValue `json:"env,omitempty"`
	URL     string      `json:"url,omitempty"`
	Headers []nameValue `json:"headers,omitempty"`
}

type nameValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type newSessionResponse struct {
	SessionID string `json:"sessionId"`
	// Models are the models the agent offers for session/set_model (an
	// unstable part of ACP); nil when it offers none.
	Models *sessionModels `json:"models"`
}

type sessionModels struct {
	AvailableModels []modelInfo `json:"availableModels"`
	CurrentModelID  string      `json:"currentModelId"`
}

type modelInfo struct {
	ModelID string `json:"modelId"`
	Name    string `json:"name"`
}

type setModelRequest struct {
	SessionID string `json:"sessionId"`
	ModelID   string `json:"modelId"`
}

type promptRequest struct {
	SessionID string         `json:"sessionId"`
	Prompt    []contentBlock `json:"prompt"`
}

type contentBlock struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`
}

type promptResponse struct {
	StopReason string          `json:"stopReason"`
	Meta       json.RawMessage `json:"_meta,omitempty"`
}

// Stop reasons of a prompt turn.
const (
	stopEndTurn   = "end_turn"
	stopCancelled = "cancelled"
	stopRefusal   = "refusal"
)

type cancelNotification struct {
	SessionID string `json:"sessionId"`
}

type sessionNotification struct {
	SessionID string        `json:"sessionId"`
	Update    sessionUpdate `json:"update"`
}

// sessionUpdate is one session/update; SessionUpdate says which fields
// are set.
type sessionUpdate struct {
	SessionUpdate string `json:"sessionUpdate"`
	// agent_message_chunk, agent_thought_chunk, user_message_chunk
	Content json.RawMessage `json:"content,omitempty"`
	// tool_call, tool_call_update
	ToolCallID string          `json:"toolCallId,omitempty"`
	Title      string          `json:"title,omitempty"`
	Kind       string          `json:"kind,omitempty"`
	Status     string          `json:"status,omitempty"`
	RawInput   json.RawMessage `json:"rawInput,omitempty"`
	RawOutput  json.RawMessage `json:"rawOutput,omitempty"`
	// plan
	Entries []planEntry `json:"entries,omitempty"`
	// usage_update
	Used int64 `json:"used,omitempty"`
	Size int64 `json:"size,omitempty"`
	// Meta is the agent's own extension data (Agent.UpdateUsage,
	// Agent.MetaToolName).
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// Session update kinds.
const (
	updateMessageChunk = "agent_message_chunk"
	updateThoughtChunk = "agent_thought_chunk"
	updateToolCall     = "tool_call"
	updateToolCallDone = "tool_call_update"
	updatePlan         = "plan"
)

// Tool call statuses.
const (
	toolPending    = "pending"
	toolInProgress = "in_progress"
	toolCompleted  = "completed"
	toolFailed     = "failed"
)

type planEntry struct {
	Content  string `json:"content"`
	Priority string `json:"priority"`
	Status   string `json:"status"`
}

// toolCallContent is one entry of a tool call's content: text wrapped in
// a content block ("content"), a diff or a terminal.
type toolCallContent struct {
	Type    string `json:"type"`
	Content *struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content,omitempty"`
}

type requestPermissionRequest struct {
	SessionID string             `json:"sessionId"`
	ToolCall  sessionUpdate      `json:"toolCall"`
	Options   []permissionOption `json:"options"`
}

type permissionOption struct {
	OptionID string `json:"optionId"`
	Name     string `json:"name"`
	Kind     string `json:"kind"`
}

// Permission option kinds.
const (
	optionAllowOnce  = "allow_once"
	optionRejectOnce = "reject_once"
)

type requestPermissionResponse struct {
	Outcome permissionOutcome `json:"outcome"`
}

type permissionOutcome struct {
	Outcome  string `json:"outcome"` // "selected" or "cancelled"
	OptionID string `json:"optionId,omitempty"`
}
