package codex

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/loopbackguard"
)

// The hook MCP server Codex's mcp_tool hook handlers call: it lives inside
// the agent host, one per session, on a loopback port. Other users of the
// machine reach that port too, so every request needs a random bearer
// token that only the session's app-server process knows (through its
// environment); and it must name the server in Host and come from no
// other origin or site, which keeps out web pages in the user's browser
// (shared/loopbackguard).
const (
	hookServerName = "stratos_hooks"
	toolPre        = "pre_tool_use"
	toolPost       = "post_tool_use"
	// hookTokenVar carries the bearer token into the app-server's
	// environment; Codex reads it by name (bearer_token_env_var).
	hookTokenVar = "STRATOS_CODEX_HOOK_TOKEN"
	// hookTimeoutSeconds bounds one author hook as Codex sees it. Author
	// hooks are async TypeScript and may be slow; a timeout fails the hook
	// and Stratos fails the invocation (Codex itself would fail open).
	hookTimeoutSeconds = 3600
)

// hookArgs are the arguments the generated hook handlers pass: fields of
// Codex's hook event, placed by ${…} placeholders.
type hookArgs struct {
	ToolName     string          `json:"tool_name"`
	ToolInput    json.RawMessage `json:"tool_input"`
	Call         string          `json:"call"`
	Turn         string          `json:"turn"`
	ToolResponse json.RawMessage `json:"tool_response"`
}

// hookFunc answers one hook call with the text Codex parses as the hook's
// output (the command-hook output contract; "" = no opinion).
type hookFunc func(ctx context.Context, args hookArgs) string

// hookEndpoint is how Codex reaches the hook server.
type hookEndpoint struct {
	url string
}

// serverTable is the [mcp_servers.stratos_hooks] table. Its tools are
// approved: approval policy "never" would otherwise refuse every hook call.
func (e *hookEndpoint) serverTable() map[string]any {
	return map[string]any{"url": e.url, "bearer_token_env_var": hookTokenVar,
		"default_tools_approval_mode": "approve", "startup_timeout_sec": 30, "tool_timeout_sec": hookTimeoutSeconds}
}

// hookTables are the generated PreToolUse and PostToolUse hooks: every
// tool call goes through the author's hooks (the host answers "allow"
// itself when the agent has none).
func (e *hookEndpoint) hookTables() map[string]any {
	input := map[string]any{"tool_name": "${tool_name}", "tool_input": "${tool_input}", "call": "${tool_use_id}", "turn": "${turn_id}"}
	post := map[string]any{"tool_response": "${tool_response}"}
	for k, v := range input {
		post[k] = v
	}
	handler := func(tool string, in map[string]any) []any {
		return []any{map[string]any{"matcher": ".*", "hooks": []any{map[string]any{
			"type": "mcp_tool", "server": hookServerName, "tool": tool, "input": in, "timeout": hookTimeoutSeconds}}}}
	}
	return map[string]any{"PreToolUse": handler(toolPre, input), "PostToolUse": handler(toolPost, post)}
}

// hookServer serves the hook tools over streamable HTTP.
type hookServer struct {
	endpoint hookEndpoint
	token    string
	srv      *http.Server
	done     chan struct{}
}

// startHookServer listens on 127.0.0.1 and serves pre and post.
func startHookServer(pre, post hookFunc) (*hookServer, error) {
	token, err := loopbackguard.NewToken()
	if err != nil {
		return nil, fmt.Errorf("hook server: %w", err)
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "stratos-hooks", Version: "1"}, nil)
	schema := json.RawMessage(`{"type":"object"}`)
	server.AddTool(&mcp.Tool{Name: toolPre, Description: "Stratos PreToolUse hook (not for the model).", InputSchema: schema}, hookTool(pre))
	server.AddTool(&mcp.Tool{Name: toolPost, Description: "Stratos PostToolUse hook (not for the model).", InputSchema: schema}, hookTool(post))
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{JSONResponse: true})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("hook server: %w", err)
	}
	h := &hookServer{endpoint: hookEndpoint{url: "http://" + ln.Addr().String() + "/mcp"}, token: token, done: make(chan struct{})}
	h.srv = &http.Server{Handler: loopbackguard.Guard{Token: token}.Wrap(handler), ReadHeaderTimeout: 30 * time.Second}
	go func() {
		defer close(h.done)
		_ = h.srv.Serve(ln)
	}()
	return h, nil
}

// hookTool adapts a hookFunc to an MCP tool. A call the model makes itself
// (its _meta carries the model's callId; hook calls carry none) is
// refused: the tools exist only for Codex's hook runner.
func hookTool(fn hookFunc) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if _, fromModel := req.Params.Meta["callId"]; fromModel {
			return textResult("this tool belongs to Stratos's hook runner and cannot be called", true), nil
		}
		var args hookArgs
		if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
			return nil, fmt.Errorf("hook arguments: %w", err)
		}
		return textResult(fn(ctx, args), false), nil
	}
}

func textResult(text string, isError bool) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: isError}
}

// close stops the server (pending hook calls see their connection end).
func (h *hookServer) close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := h.srv.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = h.srv.Close()
	}
	<-h.done
	return err
}
