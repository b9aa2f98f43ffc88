// Package protogen generates the SDK's TypeScript view of the agent protocol
// (shared/sdk/src/agent-protocol.ts) from the Go types of agentproto, their
// one source: the message interfaces from the structs' JSON tags (written by
// package tsgen, as every TypeScript view of the Go contracts is), the method
// names, error codes and constants from agentproto's lists, and the doc
// comments from its source files. The event notification's Event is the
// event vocabulary's line, which the SDK's events.ts declares: the file
// refers to it there instead of declaring it again. scripts/build-sdk and
// scripts/gen-docs write the file; a test fails when the checked-in one is
// stale.
//
// A field's TypeScript type follows from its Go type (json.RawMessage is
// unknown, a pointer or omitempty field is optional); a `ts:"…"` struct tag
// gives it where the Go type is wider than the message (raw JSON that holds
// an AgentConfig, a string that is one of a few actions).
package protogen

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"unicode"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/tsgen"
)

// Path is the generated file, relative to the repository's root.
const Path = "shared/sdk/src/agent-protocol.ts"

// protoDir is agentproto's source directory, relative to the repository's
// root.
const protoDir = "shared/agentproto"

// messages are the protocol's types in the order the file declares them.
var messages = []any{
	agentproto.InitializeParams{}, agentproto.Settings{}, agentproto.Limits{}, agentproto.InitializeResult{}, agentproto.WorkflowRef{},
	agentproto.Overrides{}, agentproto.PromptSource{}, agentproto.TemplateVariables{}, agentproto.Worktree{},
	agentproto.AgentConfig{}, agentproto.ACPRef{}, agentproto.ACPAgent{}, agentproto.ExecuteParams{}, agentproto.ExecuteResult{}, agentproto.AgentRef{},
	agentproto.CancelParams{}, agentproto.ExecutionRef{}, agentproto.CloseResult{}, agentproto.ToolCallParams{},
	agentproto.AfterToolCallParams{}, agentproto.ToolError{}, agentproto.BeforeToolCallResult{},
	agentproto.AfterToolCallResult{}, agentproto.LifecycleParams{}, agentproto.Event{}, eventapi.IDs{}, agentproto.ErrorData{},
	agentproto.MCPConnectParams{}, agentproto.MCPConnectResult{}, agentproto.MCPCallParams{}, agentproto.MCPCallResult{},
	agentproto.MCPClientRef{}, agentproto.MCPAuthenticateParams{}, agentproto.MCPElicitParams{}, agentproto.MCPElicitResult{},
	agentproto.MCPSubscribeParams{}, agentproto.MCPResourceChangedParams{},
	agentproto.MCPResource{}, agentproto.MCPResourcesResult{}, agentproto.MCPResourceTemplate{}, agentproto.MCPResourceTemplatesResult{},
	agentproto.MCPReadResourceParams{}, agentproto.MCPResourceContents{}, agentproto.MCPReadResourceResult{},
	agentproto.MCPPromptArgument{}, agentproto.MCPPrompt{}, agentproto.MCPPromptsResult{},
	agentproto.MCPGetPromptParams{}, agentproto.MCPPromptMessage{}, agentproto.MCPGetPromptResult{},
	agentproto.Question{}, agentproto.ChoiceOption{}, agentproto.DecisionConfig{}, agentproto.DecisionLayers{},
	agentproto.DecisionParams{}, agentproto.DecisionResult{}, agentproto.DecisionRef{},
}

// fromEvents are the event vocabulary's types the protocol carries, by
// their names in the SDK's events.ts, which declares them: the protocol's
// names are aliases of those, imported inline (an import statement would
// follow the file's header, whose @internal the SDK's compiler applies to
// the first statement, and leave its declaration file without it).
var fromEvents = map[reflect.Type]string{
	reflect.TypeFor[agentproto.Event](): "StratosEvent",
	reflect.TypeFor[eventapi.IDs]():     "EventIDs",
}

// eventsModule is events.ts as agent-protocol.ts imports it.
const eventsModule = "./events.js"

// aliases are Go types with their own JSON encoding or declared in
// events.ts: a type alias when listed in messages, else written inline.
func aliases() map[reflect.Type]string {
	a := map[reflect.Type]string{
		reflect.TypeFor[agentproto.PromptSource](): `string | { file: string } | { template: string } | { configId: string }`,
		reflect.TypeFor[agentproto.ModelList]():    `string | string[]`,
		reflect.TypeFor[agentproto.ACPRef]():       `string | ACPAgent`,
	}
	for t, name := range fromEvents {
		a[t] = fmt.Sprintf("import(%q).%s", eventsModule, name)
	}
	return a
}

// Files returns the generated file by its path relative to root, the
// repository's root.
func Files(root string) (map[string][]byte, error) {
	ts, err := Generate(filepath.Join(root, protoDir))
	if err != nil {
		return nil, fmt.Errorf("the agent protocol's TypeScript: %w", err)
	}
	return map[string][]byte{Path: ts}, nil
}

// Generate returns agent-protocol.ts for the agentproto package whose
// sources are in dir (read for doc comments, with those of the event
// vocabulary beside it in ../contract/eventapi, whose types the protocol's
// event notification carries).
func Generate(dir string) ([]byte, error) {
	docs, err := tsgen.ReadDocs(
		tsgen.Source{Dir: dir, ImportPath: reflect.TypeFor[agentproto.InitializeParams]().PkgPath()},
		tsgen.Source{Dir: filepath.Join(dir, "..", "contract", "eventapi"), ImportPath: reflect.TypeFor[eventapi.IDs]().PkgPath()},
	)
	if err != nil {
		return nil, err
	}
	w := tsgen.NewWriter(tsgen.Options{Docs: docs, Aliases: aliases()})
	types := make([]reflect.Type, len(messages))
	for i, m := range messages {
		types[i] = reflect.TypeOf(m)
	}
	w.Expect(types...)
	header(w)
	for _, t := range types {
		if err := w.Declare(t); err != nil {
			return nil, err
		}
	}
	return w.Bytes(), nil
}

func header(w *tsgen.Writer) {
	w.Line("// Code generated by scripts/build-sdk from the Go package shared/agentproto; DO NOT EDIT.")
	w.Line("//")
	w.Line("// The agent host protocol as the SDK sees it: JSON-RPC 2.0 messages between")
	w.Line("// this process and `stratos-agent serve`, one JSON object per line.")
	w.Line("// shared/agentproto documents every method. @internal")
	w.Line("")
	w.Line("export const ProtocolVersion = %d;", agentproto.ProtocolVersion)
	w.Line("")
	w.Line("/** The longest message, its newline included, that the host reads (in UTF-8 bytes). */")
	w.Line("export const MaxMessageBytes = %d;", agentproto.MaxMessageBytes)
	w.Line("")
	w.Line("/** Every method name (SDK → host and host → SDK). */")
	w.Line("export const Methods = {")
	for _, m := range agentproto.Methods() {
		w.Line("  %s: %q,", methodKey(m), m)
	}
	w.Line("} as const;")
	w.Line("")
	w.Line("/** Every agent error code (error.data.code of an error response). */")
	constList(w, "ErrorCodes", "ErrorCode", agentproto.ErrorCodes())
	w.Line("")
	w.Line("/** Every direct MCP client error code (error.data.code of an mcp.* error response). */")
	constList(w, "MCPErrorCodes", "MCPErrorCode", agentproto.MCPErrorCodes())
	w.Line("")
	w.Line("/** Every decision error code (error.data.code of a decision.ask error response). */")
	constList(w, "DecisionErrorCodes", "DecisionErrorCode", agentproto.DecisionErrorCodes())
	w.Line("")
	w.Line("/** The JSON-RPC error code of agent errors. */")
	w.Line("export const RPCAgentError = %d;", agentproto.RPCAgentError)
	w.Line("")
	w.Line("/** The JSON-RPC error code of a request the SDK does not send (over MaxMessageBytes). */")
	w.Line("export const RPCInvalidRequest = %d;", agentproto.RPCInvalidRequest)
}

// constList writes values as a constant array and the type of its elements.
func constList(w *tsgen.Writer, name, elem string, values []string) {
	w.Line("export const %s = [", name)
	for _, v := range values {
		w.Line("  %q,", v)
	}
	w.Line("] as const;")
	w.Line("")
	w.Line("export type %s = (typeof %s)[number];", elem, name)
}

// methodKey is a method's key in Methods: "agent.execute" is agentExecute.
func methodKey(method string) string {
	parts := strings.Split(method, ".")
	for i := 1; i < len(parts); i++ {
		r := []rune(parts[i])
		r[0] = unicode.ToUpper(r[0])
		parts[i] = string(r)
	}
	return strings.Join(parts, "")
}
