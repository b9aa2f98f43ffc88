package fakemodel

import (
	"encoding/json"
	"fmt"
	"strconv"
	"unicode"
)

// chatReply renders one scripted turn in the Chat Completions shapes.
type chatReply struct {
	seq   int
	model string
	turn  Turn
	// usageChunk: the client asked for stream_options.include_usage, so
	// the stream ends with a chunk carrying usage and no choices.
	usageChunk bool
	// schemaContent: the request asked for response_format json_schema,
	// so structuredOutput blocks are the content's JSON, as a model
	// constrained to the schema writes it.
	schemaContent bool
	// logprobs: the request asked for the content tokens'
	// log-probabilities (non-streaming answers carry them).
	logprobs bool
}

// chatToolCall is a reply block as a function call: tool calls by name and
// input, Claude-style StructuredOutput as a call of the tool of that name
// (how OpenCode delivers json_schema output), custom tools with their
// text as {"input": …}.
type chatToolCall struct {
	id, name, arguments string
}

func (rp chatReply) id() string { return "chatcmpl-fake-" + strconv.Itoa(rp.seq) }

func (rp chatReply) toolCalls() []chatToolCall {
	var out []chatToolCall
	for i, b := range rp.turn.Reply {
		def := fmt.Sprintf("call_fake_%d_%d", rp.seq, i)
		switch {
		case b.ToolUse != nil:
			out = append(out, chatToolCall{orDefault(b.ToolUse.ID, def), b.ToolUse.Name, string(compactObject(b.ToolUse.Input))})
		case b.StructuredOutput != nil && !rp.schemaContent:
			out = append(out, chatToolCall{def, "StructuredOutput", string(compactObject(b.StructuredOutput))})
		case b.CustomToolCall != nil:
			args, _ := json.Marshal(map[string]string{"input": b.CustomToolCall.Input})
			out = append(out, chatToolCall{orDefault(b.CustomToolCall.ID, def), b.CustomToolCall.Name, string(args)})
		}
	}
	return out
}

func (rp chatReply) text() string {
	s := ""
	for _, b := range rp.turn.Reply {
		switch {
		case b.Text != nil:
			s += *b.Text
		case b.StructuredOutput != nil && rp.schemaContent:
			s += string(compactObject(b.StructuredOutput))
		}
	}
	return s
}

// contentLogprobs is the content's tokens with their log-probabilities
// (logprobs.content of a Chat Completions choice): a token is a run of
// letters and digits or one other character, valued from the turn's
// TokenLogprobs, else 0.
func (rp chatReply) contentLogprobs(content string) []any {
	out := []any{}
	for _, tok := range tokens(content) {
		lp := rp.turn.TokenLogprobs[tok]
		out = append(out, map[string]any{"token": tok, "logprob": lp, "bytes": []byte(tok), "top_logprobs": []any{}})
	}
	return out
}

// tokens splits s into runs of letters and digits and single other
// characters, a stand-in for a model's tokenizer that keeps a JSON
// value's words whole.
func tokens(s string) []string {
	var out []string
	word := -1
	for i, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if word < 0 {
				word = i
			}
			continue
		}
		if word >= 0 {
			out = append(out, s[word:i])
			word = -1
		}
		out = append(out, string(r))
	}
	if word >= 0 {
		out = append(out, s[word:])
	}
	return out
}

func (rp chatReply) reasoning() string {
	s := ""
	for _, b := range rp.turn.Reply {
		if b.Thinking != nil {
			s += *b.Thinking
		}
	}
	return s
}

// finishReason is the script's StopReason in Chat Completions terms, by
// default tool_calls when the reply calls a tool, else stop.
func (rp chatReply) finishReason() string {
	switch rp.turn.StopReason {
	case "":
	case "end_turn", "stop_sequence":
		return "stop"
	case "tool_use":
		return "tool_calls"
	case "max_tokens":
		return "length"
	default:
		return rp.turn.StopReason
	}
	if len(rp.toolCalls()) > 0 {
		return "tool_calls"
	}
	return "stop"
}

func (rp chatReply) usage() map[string]any {
	u := rp.turn.Usage
	if u.InputTokens == 0 {
		u.InputTokens = 100
	}
	if u.OutputTokens == 0 {
		u.OutputTokens = 10
	}
	return map[string]any{"prompt_tokens": u.InputTokens, "completion_tokens": u.OutputTokens,
		"total_tokens":              u.InputTokens + u.OutputTokens,
		"prompt_tokens_details":     map[string]int{"cached_tokens": u.CacheReadInputTokens},
		"completion_tokens_details": map[string]int{"reasoning_tokens": u.ReasoningTokens}}
}

// completion is the non-streaming answer.
func (rp chatReply) completion() map[string]any {
	msg := map[string]any{"role": "assistant", "content": nil}
	if t := rp.text(); t != "" {
		msg["content"] = t
	}
	if r := rp.reasoning(); r != "" {
		msg["reasoning_content"] = r
	}
	if calls := rp.toolCalls(); len(calls) > 0 {
		var out []any
		for _, c := range calls {
			out = append(out, map[string]any{"id": c.id, "type": "function",
				"function": map[string]any{"name": c.name, "arguments": c.arguments}})
		}
		msg["tool_calls"] = out
	}
	choice := map[string]any{"index": 0, "message": msg, "finish_reason": rp.finishReason()}
	if rp.logprobs {
		choice["logprobs"] = map[string]any{"content": rp.contentLogprobs(rp.text()), "refusal": nil}
	}
	return map[string]any{"id": rp.id(), "object": "chat.completion", "created": 0, "model": rp.model,
		"choices": []any{choice}, "usage": rp.usage()}
}

func (rp chatReply) chunk(delta map[string]any, finish any) map[string]any {
	return map[string]any{"id": rp.id(), "object": "chat.completion.chunk", "created": 0, "model": rp.model,
		"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
}

// chunks is the stream: the role, the reasoning (reasoning_content, as
// DeepSeek and Ollama stream it) and text word by word, each tool call
// announced with its id and name and its arguments in two halves, the
// finish reason, then usage when asked for. A mid-stream error follows
// the role chunk as an {"error": …} chunk, the way OpenAI-compatible
// servers report a failure after the headers were sent.
func (rp chatReply) chunks() []sseEvent {
	out := []sseEvent{{data: rp.chunk(map[string]any{"role": "assistant", "content": ""}, nil)}}
	if e := rp.turn.Error; e != nil {
		oe, _ := resolveOpenAIError(*e, rp.model)
		return append(out, sseEvent{data: map[string]any{"error": oe.body()}})
	}
	for _, w := range words(rp.reasoning()) {
		out = append(out, sseEvent{data: rp.chunk(map[string]any{"reasoning_content": w}, nil), delta: true})
	}
	for _, w := range words(rp.text()) {
		out = append(out, sseEvent{data: rp.chunk(map[string]any{"content": w}, nil), delta: true})
	}
	for i, c := range rp.toolCalls() {
		out = append(out, sseEvent{data: rp.chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": c.id,
			"type": "function", "function": map[string]any{"name": c.name, "arguments": ""}}}}, nil)})
		for _, part := range halves(c.arguments) {
			out = append(out, sseEvent{data: rp.chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i,
				"function": map[string]any{"arguments": part}}}}, nil), delta: true})
		}
	}
	out = append(out, sseEvent{data: rp.chunk(map[string]any{}, rp.finishReason())})
	if rp.usageChunk {
		out = append(out, sseEvent{data: map[string]any{"id": rp.id(), "object": "chat.completion.chunk", "created": 0,
			"model": rp.model, "choices": []any{}, "usage": rp.usage()}})
	}
	return out
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
