//lint:file-ignore SA1019 sampling is deprecated as of protocol 2026-07-28 (SEP-2577), but sessions on 2025-11-25 and earlier use it: Stratos answers it for servers declared with sampling: decision (docs/mcp.md), here only.

package mcpclient

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/mcpdecl"
)

// SamplingRequest is a server's sampling/createMessage as Stratos answers
// it: text turns, a system prompt and a token limit. The server's model
// preferences, temperature and stop sequences are hints the protocol
// lets a client ignore: the workflow's decision configuration chooses.
type SamplingRequest struct {
	System    string
	Messages  []SamplingMessage
	MaxTokens int
}

// SamplingMessage is one text turn of a sampling request.
type SamplingMessage struct {
	// Role is "user" or "assistant".
	Role string
	Text string
}

// SamplingReply is the model's answer to a sampling request.
type SamplingReply struct {
	Text string
	// Model names the model that answered.
	Model string
	// StopReason is "endTurn" or "maxTokens".
	StopReason string
}

// SampleFunc answers one sampling request with a model call.
type SampleFunc func(context.Context, SamplingRequest) (SamplingReply, error)

// SamplingRefusedError is a sampling request Stratos does not answer: it
// asks for tools, or carries content other than text. The server gets it
// as an invalid-params error, without a model call.
type SamplingRefusedError struct {
	Server string
	Reason string
}

func (e *SamplingRefusedError) Error() string {
	return fmt.Sprintf("MCP server %q: sampling request refused: %s", e.Server, e.Reason)
}

// offerSampling declares sampling, and answers it with sample, only for a
// server declared with sampling: decision: a model call costs money and
// sends the server's text to a model, so no server gets one unasked. The
// capability declares neither tools nor context inclusion.
func offerSampling(o *mcp.ClientOptions, server mcpdecl.Server, sample SampleFunc) {
	if server.Sampling != mcpdecl.SamplingDecision || sample == nil {
		return
	}
	o.Capabilities.Sampling = &mcp.SamplingCapabilities{}
	o.CreateMessageWithToolsHandler = func(ctx context.Context, req *mcp.CreateMessageWithToolsRequest) (*mcp.CreateMessageWithToolsResult, error) {
		r, err := samplingRequest(server.Name, req.Params)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
		}
		reply, err := sample(ctx, r)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("sampling failed: %v", err)}
		}
		return &mcp.CreateMessageWithToolsResult{Content: []mcp.Content{&mcp.TextContent{Text: reply.Text}},
			Model: reply.Model, Role: "assistant", StopReason: reply.StopReason}, nil
	}
}

// samplingRequest reads a request Stratos can answer: text turns of user
// and assistant, no tools. A message's text blocks are joined.
func samplingRequest(server string, p *mcp.CreateMessageWithToolsParams) (SamplingRequest, error) {
	refuse := func(format string, args ...any) (SamplingRequest, error) {
		return SamplingRequest{}, &SamplingRefusedError{Server: server, Reason: fmt.Sprintf(format, args...)}
	}
	if p == nil || len(p.Messages) == 0 {
		return refuse("it has no messages")
	}
	if len(p.Tools) > 0 || p.ToolChoice != nil {
		return refuse("tool use in sampling is not supported (Stratos declares no sampling tools)")
	}
	r := SamplingRequest{System: p.SystemPrompt, MaxTokens: int(p.MaxTokens)}
	for i, m := range p.Messages {
		if m == nil || (m.Role != "user" && m.Role != "assistant") {
			return refuse("messages[%d]: the role must be user or assistant", i)
		}
		var text []string
		for _, c := range m.Content {
			t, ok := c.(*mcp.TextContent)
			if !ok {
				return refuse("messages[%d]: %s content is not supported (text only)", i, contentKind(c))
			}
			text = append(text, t.Text)
		}
		r.Messages = append(r.Messages, SamplingMessage{Role: string(m.Role), Text: strings.Join(text, "\n\n")})
	}
	return r, nil
}

// contentKind names a content block's type as the protocol does.
func contentKind(c mcp.Content) string {
	switch c.(type) {
	case *mcp.ImageContent:
		return "image"
	case *mcp.AudioContent:
		return "audio"
	case *mcp.ToolUseContent:
		return "tool_use"
	case *mcp.ToolResultContent:
		return "tool_result"
	}
	return fmt.Sprintf("%T", c)
}
