package acpgeneric

import (
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/tools"
)

// Harness is the harness name agents configure.
const Harness = "acp"

// Registration is everything Stratos knows about the acp harness
// (docs/design/harness-registration.md); package harnesses lists it.
func Registration(opts Options) adapter.Harness {
	return adapter.Harness{
		Name: Harness, Title: "any ACP agent", New: NewFactory(opts), Capabilities: Capabilities,
		Tools: &Tools, Docs: adapter.Docs{Page: "harness-acp.md"},
	}
}

// Capabilities are what the protocol guarantees of any agent. Tool hooks
// cannot run: ACP lets an agent run a tool without asking
// (session/request_permission is sent only for the calls the agent's own
// policy chooses), so a hook would silently miss calls, and a client can
// only allow or reject, never change an input or see a result before the
// model does. Structured output is the final message, validated by the
// agent host with its retries. Background work is what the agent's tools
// leave running in sessions of their own among its descendants, which the
// kit ends at Cancel and Close whatever the agent. A model is chosen with
// session/set_model among those the agent offers, but an agent need not
// offer any; authentication checks and usage are not in the protocol:
// nothing is claimed for them.
var Capabilities = adapter.Capabilities{
	ExecutesTools:         true,
	StructuredOutput:      adapter.StructuredOutputSchema,
	BackgroundWork:        true,
	CancelsBackgroundWork: true,
	ToolHooksUnsupported:  "ACP lets an agent run a tool without asking: session/request_permission is sent only for the calls the agent's own policy chooses, and a client can only allow or reject them",
}

// Tools declares no built-in tool: the agent's tools are its own and ACP
// has no request to remove one, so allowedTools and disallowedTools are
// refused when the agent is made.
var Tools = tools.Declaration{
	Harness: Harness,
	Removal: "nothing: an ACP agent's tools are its own (allowedTools and disallowedTools are a configuration error)",
}
