package acp

import (
	"context"
	"encoding/json"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/jsonrpc"
)

// Agent is what a harness on ACP says about its agent; the session does
// the rest.
type Agent struct {
	// Harness names the harness in messages and errors ("gemini").
	Harness string
	// Launch prepares one session's agent process in dir, a private
	// directory (mode 0700) the session removes at Close. It returns a
	// rejection when the agent cannot serve the session (not installed, no
	// credentials, a model it lacks).
	Launch func(ctx context.Context, spec adapter.Spec, dir string) (Launch, error)
	// Refusal reads a failed session/prompt: a rejection (model
	// unavailable, authentication) or nil for an ordinary failure.
	// stderr is the tail of the agent's stderr; hadWork says whether the
	// turn already produced output or tool work.
	Refusal func(spec adapter.Spec, err *jsonrpc.RemoteError, stderr string, hadWork bool) error
	// Usage reads the token counts an agent reports in the prompt answer's
	// _meta (ACP has no field of its own for them); nil when it reports
	// none.
	Usage func(meta json.RawMessage) *eventapi.Tokens
	// UpdateUsage reads the token counts an agent reports in a
	// session/update's _meta instead (one model response's; Qwen Code
	// sends them so), summed over the turn and reported when the prompt
	// answer has none; nil for an update without them.
	UpdateUsage func(meta json.RawMessage) *eventapi.Tokens
	// ToolName names a tool call for hooks and events from what the agent
	// sends (default: the call's kind, "execute", "edit", …).
	ToolName func(toolCallID, kind string) string
	// MetaToolName names a tool call from its update's _meta when the
	// agent puts the tool's own name there (Qwen Code's _meta.toolName);
	// "" falls back to ToolName.
	MetaToolName func(meta json.RawMessage) string
	// Aside says, from its _meta, that a message chunk is a notice of the
	// agent's own rather than the model's reply to the prompt (Qwen Code
	// announces a background task's end so, and answers it in a turn of
	// its own); an aside is left out of the reply and its events.
	Aside func(meta json.RawMessage) bool
	// NativeHooks, when set, bring the author's tool hooks through the
	// agent's own (its Launch configures the hook command to run the
	// relay at RelayPath); nil: through session/request_permission.
	NativeHooks *NativeHooks
}

// Launch is one agent process to start.
type Launch struct {
	Path string
	Args []string
	Env  []string
	// AuthMethod is the auth method to call authenticate with, when the
	// agent offers it ("" calls none).
	AuthMethod string
	// Model is the model to choose with session/set_model after
	// session/new ("" chooses none): the agent's own model ID, or a
	// canonical one ("google/gemini-2.5-pro") whose part after the
	// provider the agent offers.
	Model string
}
