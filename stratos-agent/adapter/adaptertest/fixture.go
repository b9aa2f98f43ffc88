package adaptertest

import (
	"encoding/json"
	"testing"

	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// Fixture adapts the suite to one harness.
type Fixture interface {
	// Harness is the adapter under test.
	Harness() adapter.Harness
	// Start prepares one case: the fake model scripted with s and a
	// private environment for the CLI. It registers its cleanup with t and
	// fails t (saying what to install) when the harness's CLI is missing.
	Start(t *testing.T, s Script) Env
}

// Script is what the model answers in one case.
type Script struct {
	Turns []Turn
	// NoCredentials starts the harness without any usable credentials.
	NoCredentials bool
}

// Turn is the model's answer to the prompt that contains Marker. Exactly
// one of Text (alone), Shell (with Text as the answer after the tool
// result), Value, Values or ModelNotFound describes it.
type Turn struct {
	Marker string
	// Text is the final answer of the turn.
	Text string
	// Shell is a tool call the harness runs before answering Text.
	Shell *Shell
	// Value is a structured answer for an agent with an outputSchema.
	Value json.RawMessage
	// Values are successive structured attempts within one turn (the
	// harness rejects a mismatching attempt and the model tries again),
	// for harnesses whose StructuredOutput is StructuredOutputTool.
	Values []json.RawMessage
	// ModelNotFound answers with the API's model-not-found error.
	ModelNotFound bool
}

// Shell is a shell command the model asks the harness to run.
type Shell struct {
	Command string
	// Background asks the harness to run it as background work that
	// outlives the turn.
	Background bool
	// Long marks a command that does not end by itself (the case cancels
	// it); a harness that simulates tools makes the call wait instead.
	Long bool
	// Fails marks a command that fails (a harness that simulates tools
	// scripts the failure).
	Fails bool
}

// Env is one case's running environment.
type Env interface {
	// New makes an adapter bound to this environment.
	New(spec adapter.Spec, onEvent func(adapter.Event), hooks adapter.Hooks) (adapter.Adapter, error)
	// Spec is the base spec of the case (name, model, working directory);
	// the suite sets the fields a case is about.
	Spec() adapter.Spec
	// Requests are the model requests received so far, in order.
	Requests() []Request
	// ProcessMarker is a KEY=VALUE in the environment of every process
	// the adapter starts ("" when it starts none).
	ProcessMarker() string
}

// Request is what the model received in one request.
type Request struct {
	// System are the system or developer instruction blocks.
	System []string
	// Prompt is the newest user text.
	Prompt string
	// Conversation is the text of every message of the request, the
	// instructions excluded.
	Conversation string
	// ToolResults are the tool results the request returns to the model.
	ToolResults []ToolResult
}

// ToolResult is one tool result as the model saw it.
type ToolResult struct {
	Content string
	IsError bool
}
