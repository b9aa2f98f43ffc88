package agentproto

import "encoding/json"

// Methods of the workflow's direct MCP clients. The host owns each client's
// connection (the Go MCP SDK); the SDK's generated wrappers reach it here.
const (
	MethodMCPConnect = "mcp.connect"
	MethodMCPCall    = "mcp.call"
	MethodMCPClose   = "mcp.close"
	// MethodMCPAuthenticate checks, before a child workflow's run body,
	// that every server its workflow.yaml declares with oauth has a login
	// with five minutes left (refreshed when possible).
	MethodMCPAuthenticate = "mcp.authenticate"
)

// Error codes of direct MCP clients (err.code of the SDK's McpError
// classes).
const (
	CodeMCPConfiguration = "mcp_configuration" // undeclared or invalid server, unset ${NAME}
	CodeMCPConnection    = "mcp_connection"    // the server could not be started or reached, or the connection broke
	CodeMCPTimeout       = "mcp_timeout"       // a request took longer than five minutes
	CodeMCPProtocol      = "mcp_protocol"      // the server answered with a JSON-RPC error (unknown tool, invalid arguments, ...)
)

// MCPErrorCodes lists the MCP error codes (the TypeScript file must list
// the same).
func MCPErrorCodes() []string {
	return []string{CodeMCPConfiguration, CodeMCPConnection, CodeMCPProtocol, CodeMCPTimeout}
}

// MCPConnectParams creates a direct client of one declared server, owned by
// an execution.
type MCPConnectParams struct {
	// ClientID is chosen by the SDK, unique within the host.
	ClientID    string      `json:"clientId"`
	ExecutionID string      `json:"executionId"`
	Workflow    WorkflowRef `json:"workflow"`
	// Server is a key of the workflow's mcp.servers.
	Server string `json:"server"`
}

// MCPAuthenticateParams names the workflow whose OAuth servers to check.
type MCPAuthenticateParams struct {
	Workflow WorkflowRef `json:"workflow"`
}

// MCPConnectResult describes the ready client.
type MCPConnectResult struct {
	ProtocolVersion string `json:"protocolVersion"`
}

// MCPCallParams calls one tool.
type MCPCallParams struct {
	ClientID  string          `json:"clientId"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments" ts:"Record<string, unknown>"`
}

// MCPCallResult is the tool's result as the server sent it. IsError results
// are returned too: the SDK turns them into McpToolError.
type MCPCallResult struct {
	Content           json.RawMessage `json:"content" ts:"Array<Record<string, unknown>>"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError,omitempty"`
}

// MCPClientRef names a client.
type MCPClientRef struct {
	ClientID string `json:"clientId"`
}
