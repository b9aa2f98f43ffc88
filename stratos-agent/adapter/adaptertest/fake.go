package adaptertest

import (
	"encoding/json"
	"strings"

	"github.com/stratoscli/stratos/shared/fakemodel"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// ToolFormat is how the fake model of one harness asks for the suite's
// tool calls.
type ToolFormat struct {
	// Shell is the harness's call of its shell tool running sh.
	Shell func(sh Shell) fakemodel.ToolUse
	// StructuredTool names the tool whose input delivers a structured
	// value; "" is the fake's structuredOutput block.
	StructuredTool string
}

// FakeScript translates the suite's turns into the fake's script: a shell
// turn is the harness's shell call followed by the final text, a
// structured value a structured block (one reply per attempt), a refused
// model the API's not-found error on every matching request.
func FakeScript(turns []Turn, f ToolFormat) fakemodel.Script {
	var out []fakemodel.Turn
	reply := func(marker string, b fakemodel.Block) {
		out = append(out, fakemodel.Turn{Match: fakemodel.Match{Marker: marker}, Reply: []fakemodel.Block{b}})
	}
	for _, t := range turns {
		switch {
		case t.ModelNotFound:
			out = append(out, fakemodel.Turn{Match: fakemodel.Match{Marker: t.Marker}, Repeat: true,
				Error: &fakemodel.ErrorReply{Kind: "not_found"}})
		case t.Shell != nil:
			call := f.Shell(*t.Shell)
			reply(t.Marker, fakemodel.Block{ToolUse: &call})
			reply(t.Marker, textBlock(t.Text))
		case t.Value != nil:
			reply(t.Marker, f.structured(t.Value))
		case t.Values != nil:
			for _, v := range t.Values {
				reply(t.Marker, f.structured(v))
			}
		default:
			reply(t.Marker, textBlock(t.Text))
		}
	}
	return fakemodel.Script{Turns: out}
}

func (f ToolFormat) structured(v json.RawMessage) fakemodel.Block {
	if f.StructuredTool == "" {
		return fakemodel.Block{StructuredOutput: v}
	}
	return fakemodel.Block{ToolUse: &fakemodel.ToolUse{Name: f.StructuredTool, Input: v}}
}

func textBlock(s string) fakemodel.Block { return fakemodel.Block{Text: &s} }

// ToolInput is a tool call's input object.
func ToolInput(fields map[string]any) json.RawMessage {
	b, _ := json.Marshal(fields) // plain values, which always marshal
	return b
}

// FakeEnv is the Env of a harness whose CLI talks to a Bed's fake model.
type FakeEnv struct {
	Bed *Bed
	// Factory makes the adapter bound to the bed's environment.
	Factory adapter.Factory
	// Base is the base spec; its WorkingDirectory defaults to Bed.Work.
	Base adapter.Spec
	// Read turns the fake's log into the model requests the case sees
	// (AnthropicRequests, ResponsesRequests).
	Read func([]fakemodel.Entry) []Request
}

// New makes an adapter with Factory.
func (e *FakeEnv) New(spec adapter.Spec, onEvent func(adapter.Event), hooks adapter.Hooks) (adapter.Adapter, error) {
	return e.Factory(spec, onEvent, hooks)
}

// Spec is Base, in the bed's working directory.
func (e *FakeEnv) Spec() adapter.Spec {
	s := e.Base
	if s.WorkingDirectory == "" {
		s.WorkingDirectory = e.Bed.Work
	}
	return s
}

// Requests are the model requests received so far.
func (e *FakeEnv) Requests() []Request { return e.Read(e.Bed.Server.Log().Entries()) }

// ProcessMarker is the bed's marker.
func (e *FakeEnv) ProcessMarker() string { return e.Bed.Marker }

// MessagesEntries are the Messages API requests among entries, not
// count_tokens or probes.
func MessagesEntries(entries []fakemodel.Entry) []fakemodel.Entry {
	var out []fakemodel.Entry
	for _, e := range entries {
		if e.Method == "POST" && strings.HasPrefix(e.Path, "/v1/messages") && !strings.Contains(e.Path, "count_tokens") {
			out = append(out, e)
		}
	}
	return out
}

// AnthropicRequests are the Messages API requests (MessagesEntries);
// Conversation is the messages array.
func AnthropicRequests(entries []fakemodel.Entry) []Request {
	var out []Request
	for _, e := range MessagesEntries(entries) {
		var body struct {
			Messages json.RawMessage `json:"messages"`
		}
		_ = json.Unmarshal(e.Body, &body)
		out = append(out, requestOf(e, string(body.Messages)))
	}
	return out
}

// ResponsesRequests are the Responses API requests; Conversation is
// every input item except the developer and system messages (the
// instructions).
func ResponsesRequests(entries []fakemodel.Entry) []Request {
	var out []Request
	for _, e := range entries {
		if e.API != fakemodel.APIResponses {
			continue
		}
		var body struct {
			Input []json.RawMessage `json:"input"`
		}
		_ = json.Unmarshal(e.Body, &body)
		var conv []string
		for _, it := range body.Input {
			var m struct {
				Role string `json:"role"`
			}
			if json.Unmarshal(it, &m) == nil && (m.Role == "developer" || m.Role == "system") {
				continue
			}
			conv = append(conv, string(it))
		}
		out = append(out, requestOf(e, strings.Join(conv, "\n")))
	}
	return out
}

func requestOf(e fakemodel.Entry, conversation string) Request {
	r := Request{System: e.System, Prompt: e.Prompt, Conversation: conversation}
	for _, tr := range e.ToolResults {
		r.ToolResults = append(r.ToolResults, ToolResult{Content: tr.Content, IsError: tr.IsError})
	}
	return r
}

// GeminiRequests are the Gemini API's generateContent requests a fake
// model saw, for harnesses whose CLI speaks it (gemini, and acp pointed at
// the Gemini CLI); Conversation is the contents array (the system
// instruction is apart).
func GeminiRequests(entries []fakemodel.Entry) []Request {
	var out []Request
	for _, e := range entries {
		if e.API != fakemodel.APIGemini || !strings.Contains(e.Path, "enerateContent") {
			continue
		}
		var body struct {
			Contents json.RawMessage `json:"contents"`
		}
		_ = json.Unmarshal(e.Body, &body)
		r := Request{System: e.System, Prompt: e.Prompt, Conversation: string(body.Contents)}
		for _, tr := range e.ToolResults {
			r.ToolResults = append(r.ToolResults, ToolResult{Content: tr.Content, IsError: tr.IsError})
		}
		out = append(out, r)
	}
	return out
}
