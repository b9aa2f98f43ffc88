package fakemodel

import (
	"fmt"
)

// geminiReply renders one scripted turn in the Gemini API's shapes.
type geminiReply struct {
	seq   int
	model string
	turn  Turn
}

// parts are the reply's blocks as Gemini parts: thinking as thought text,
// tool calls (and a StructuredOutput block, as a call of the tool of that
// name) as functionCall with an id, custom tool calls with their text as
// {"input": …}.
func (rp geminiReply) parts() []map[string]any {
	var out []map[string]any
	for i, b := range rp.turn.Reply {
		def := fmt.Sprintf("call_fake_%d_%d", rp.seq, i)
		switch {
		case b.Text != nil:
			out = append(out, map[string]any{"text": *b.Text})
		case b.Thinking != nil:
			out = append(out, map[string]any{"text": *b.Thinking, "thought": true})
		case b.ToolUse != nil:
			out = append(out, geminiCall(orDefault(b.ToolUse.ID, def), b.ToolUse.Name, compactObject(b.ToolUse.Input)))
		case b.StructuredOutput != nil:
			out = append(out, geminiCall(def, "StructuredOutput", compactObject(b.StructuredOutput)))
		case b.CustomToolCall != nil:
			out = append(out, geminiCall(orDefault(b.CustomToolCall.ID, def), b.CustomToolCall.Name, map[string]string{"input": b.CustomToolCall.Input}))
		}
	}
	return out
}

func geminiCall(id, name string, args any) map[string]any {
	return map[string]any{"functionCall": map[string]any{"id": id, "name": name, "args": args}}
}

// finishReason is STOP unless the script names one (MAX_TOKENS, SAFETY…);
// Gemini reports STOP after function calls too.
func (rp geminiReply) finishReason() string {
	switch rp.turn.StopReason {
	case "", "end_turn", "tool_use", "stop_sequence":
		return "STOP"
	case "max_tokens":
		return "MAX_TOKENS"
	default:
		return rp.turn.StopReason
	}
}

func (rp geminiReply) usage() map[string]int {
	u := rp.turn.Usage
	if u.InputTokens == 0 {
		u.InputTokens = 100
	}
	if u.OutputTokens == 0 {
		u.OutputTokens = 10
	}
	return map[string]int{"promptTokenCount": u.InputTokens, "candidatesTokenCount": u.OutputTokens,
		"cachedContentTokenCount": u.CacheReadInputTokens, "thoughtsTokenCount": u.ReasoningTokens,
		"totalTokenCount": u.InputTokens + u.OutputTokens}
}

func (rp geminiReply) candidate(parts []map[string]any, last bool) map[string]any {
	if parts == nil {
		parts = []map[string]any{}
	}
	c := map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "index": 0}
	out := map[string]any{"candidates": []any{c}, "modelVersion": rp.model, "responseId": fmt.Sprintf("resp_fake_%d", rp.seq)}
	if last {
		c["finishReason"] = rp.finishReason()
		out["usageMetadata"] = rp.usage()
	}
	return out
}

// response is the non-streaming answer.
func (rp geminiReply) response() map[string]any { return rp.candidate(rp.parts(), true) }

// chunks is the stream (alt=sse: data-only events): text word by word,
// each other part whole, the last chunk with the finish reason and usage.
func (rp geminiReply) chunks() []sseEvent {
	var out []sseEvent
	for _, p := range rp.parts() {
		if t, ok := p["text"].(string); ok {
			for _, w := range words(t) {
				q := map[string]any{"text": w}
				if p["thought"] == true {
					q["thought"] = true
				}
				out = append(out, sseEvent{data: rp.candidate([]map[string]any{q}, false), delta: true})
			}
			continue
		}
		out = append(out, sseEvent{data: rp.candidate([]map[string]any{p}, false)})
	}
	return append(out, sseEvent{data: rp.candidate(nil, true)})
}
