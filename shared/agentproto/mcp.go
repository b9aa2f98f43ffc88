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
	// The server's resources and prompts, on the connection the tool
	// calls use. Lists are read to their last page (at most
	// mcpclient.MaxListed entries).
	MethodMCPResources         = "mcp.resources"
	MethodMCPResourceTemplates = "mcp.resourceTemplates"
	MethodMCPReadResource      = "mcp.readResource"
	MethodMCPPrompts           = "mcp.prompts"
	MethodMCPGetPrompt         = "mcp.getPrompt"
	// MethodMCPSubscribe and MethodMCPUnsubscribe (MCPSubscribeParams →
	// null) start and end a resource subscription: the host tells the SDK
	// of each change of a subscribed resource (MethodMCPResourceChanged).
	MethodMCPSubscribe   = "mcp.subscribe"
	MethodMCPUnsubscribe = "mcp.unsubscribe"
	// MethodMCPResourceChanged (host → SDK, a notification) says a
	// subscribed resource of a client changed, or, for a client connected
	// with MCPConnectParams.ResourceListChanged, that its server's list of
	// resources did.
	MethodMCPResourceChanged = "mcp.resourceChanged"
	// MethodMCPElicit (host → SDK) asks the workflow's elicitation
	// handler of a client connected with MCPConnectParams.Elicitation to
	// answer its server's elicitation/create.
	MethodMCPElicit = "mcp.elicit"
)

// MCPMethods lists the direct MCP client methods.
func MCPMethods() []string {
	return []string{
		MethodMCPAuthenticate, MethodMCPCall, MethodMCPClose, MethodMCPConnect, MethodMCPElicit,
		MethodMCPGetPrompt, MethodMCPPrompts, MethodMCPReadResource, MethodMCPResourceChanged, MethodMCPResourceTemplates,
		MethodMCPResources, MethodMCPSubscribe, MethodMCPUnsubscribe,
	}
}

// Error codes of direct MCP clients (err.code of the SDK's McpError
// classes).
const (
	CodeMCPConfiguration = "mcp_configuration" // undeclared or invalid server, unset ${NAME}
	CodeMCPConnection    = "mcp_connection"    // the server could not be started or reached, or the connection broke
	CodeMCPTimeout       = "mcp_timeout"       // a request took longer than five minutes
	// CodeMCPProtocol: the server answered with a JSON-RPC error. Most
	// servers answer an unknown tool or invalid arguments with a tool
	// result marked as an error instead, which the SDK throws as
	// McpToolError, not as this code.
	CodeMCPProtocol = "mcp_protocol"
	// CodeMCPResourceTooLarge: a resource read is larger than its limit
	// (details.uri, details.limit, details.size).
	CodeMCPResourceTooLarge = "mcp_resource_too_large"
)

// MCPErrorCodes lists the MCP error codes (the TypeScript file must list
// the same).
func MCPErrorCodes() []string {
	return []string{CodeMCPConfiguration, CodeMCPConnection, CodeMCPProtocol, CodeMCPResourceTooLarge, CodeMCPTimeout}
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
	// Elicitation says the workflow answers the server's elicitation
	// requests itself (mcp.elicit); false: the declared policy answers.
	Elicitation bool `json:"elicitation,omitempty"`
	// LogLevel is the least severe level of the server's log messages to
	// ask for ("": none is asked, the server's default stands); each
	// message becomes an mcp.log event.
	LogLevel string `json:"logLevel,omitempty" ts:"\"debug\" | \"info\" | \"notice\" | \"warning\" | \"error\" | \"critical\" | \"alert\" | \"emergency\""`
	// ResourceListChanged says the workflow hears when the server's list
	// of resources changes (mcp.resourceChanged with listChanged).
	ResourceListChanged bool `json:"resourceListChanged,omitempty"`
	// Decision is the workflow's decision configuration, with which the
	// host answers the sampling requests of a server declared with
	// sampling: decision: workflow.yaml's section and the invocation's
	// overrides (Call is not used). nil: the host reads workflow.yaml's.
	Decision *DecisionLayers `json:"decision,omitempty"`
}

// MCPLogLevels are the log levels of the protocol, least severe first.
func MCPLogLevels() []string {
	return []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}
}

// MCPSubscribeParams names a resource of a client to subscribe to or
// unsubscribe from.
type MCPSubscribeParams struct {
	ClientID string `json:"clientId"`
	URI      string `json:"uri"`
}

// MCPResourceChangedParams is a change the server announced: the resource
// URI changed, or (ListChanged, no URI) the list of resources did.
type MCPResourceChangedParams struct {
	ClientID    string `json:"clientId"`
	URI         string `json:"uri,omitempty"`
	ListChanged bool   `json:"listChanged,omitempty"`
}

// The actions of an elicitation's answer.
const (
	ElicitAccept  = "accept"
	ElicitDecline = "decline"
	ElicitCancel  = "cancel"
)

// MCPElicitParams is a server's elicitation request (form mode), passed to
// the workflow's handler of the client.
type MCPElicitParams struct {
	ClientID string `json:"clientId"`
	// Server is the mcp.servers key.
	Server  string `json:"server"`
	Message string `json:"message"`
	// RequestedSchema is the form: a flat object schema of primitive
	// properties.
	RequestedSchema json.RawMessage `json:"requestedSchema,omitempty" ts:"Record<string, unknown>"`
}

// MCPElicitResult is the handler's answer. Content, with action accept
// only, is checked against the requested schema before the server sees it.
type MCPElicitResult struct {
	Action  string          `json:"action" ts:"\"accept\" | \"decline\" | \"cancel\""`
	Content json.RawMessage `json:"content,omitempty" ts:"Record<string, unknown>"`
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

// Resource reads' size limits: the bytes of a read's contents (text as
// UTF-8, blobs decoded), summed. The ceiling keeps the base64 of a read
// within one protocol message (64 MiB).
const (
	DefaultResourceLimit = 16 << 20
	MaxResourceLimit     = 32 << 20
)

// MCPResource is one resource a server lists.
type MCPResource struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
	// Size is the raw size in bytes, when the server says.
	Size int64 `json:"size,omitempty"`
}

// MCPResourcesResult lists every resource of a server, sorted by URI.
type MCPResourcesResult struct {
	Resources []MCPResource `json:"resources"`
}

// MCPResourceTemplate is one resource template a server lists: a URI
// template (RFC 6570) whose expansions readResource reads.
type MCPResourceTemplate struct {
	URITemplate string `json:"uriTemplate"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
}

// MCPResourceTemplatesResult lists every resource template of a server,
// sorted by URI template.
type MCPResourceTemplatesResult struct {
	ResourceTemplates []MCPResourceTemplate `json:"resourceTemplates"`
}

// MCPReadResourceParams reads one resource by URI.
type MCPReadResourceParams struct {
	ClientID string `json:"clientId"`
	URI      string `json:"uri"`
	// MaxBytes is the read's size limit (0: DefaultResourceLimit; at most
	// MaxResourceLimit).
	MaxBytes int `json:"maxBytes,omitempty"`
}

// MCPResourceContents is one part of a resource: text, or a blob in
// base64 (exactly one is set).
type MCPResourceContents struct {
	URI      string  `json:"uri"`
	MIMEType string  `json:"mimeType,omitempty"`
	Text     *string `json:"text,omitempty"`
	Blob     *string `json:"blob,omitempty"`
}

// MCPReadResourceResult is a resource's contents.
type MCPReadResourceResult struct {
	Contents []MCPResourceContents `json:"contents"`
}

// MCPPromptArgument is one argument a prompt takes.
type MCPPromptArgument struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// MCPPrompt is one prompt a server lists.
type MCPPrompt struct {
	Name        string              `json:"name"`
	Title       string              `json:"title,omitempty"`
	Description string              `json:"description,omitempty"`
	Arguments   []MCPPromptArgument `json:"arguments,omitempty"`
}

// MCPPromptsResult lists every prompt of a server, sorted by name.
type MCPPromptsResult struct {
	Prompts []MCPPrompt `json:"prompts"`
}

// MCPGetPromptParams gets one prompt with its arguments filled in.
type MCPGetPromptParams struct {
	ClientID  string            `json:"clientId"`
	Name      string            `json:"name"`
	Arguments map[string]string `json:"arguments,omitempty"`
}

// MCPPromptMessage is one message of a prompt: its role and one content
// block as the server sent it.
type MCPPromptMessage struct {
	Role    string          `json:"role" ts:"\"user\" | \"assistant\""`
	Content json.RawMessage `json:"content" ts:"Record<string, unknown>"`
}

// MCPGetPromptResult is a prompt's messages.
type MCPGetPromptResult struct {
	Description string             `json:"description,omitempty"`
	Messages    []MCPPromptMessage `json:"messages"`
}
