package fakemodel

import (
	"fmt"
	"strconv"
)

// responsesReply renders one scripted turn in the Responses API's shapes.
type responsesReply struct {
	seq   int
	model string
	turn  Turn
}

func (rp responsesReply) responseID() string { return "resp_fake_" + strconv.Itoa(rp.seq) }

// itemID is the id of output item i; prefix says its kind (msg, rs, fc).
func (rp responsesReply) itemID(prefix string, i int) string {
	return fmt.Sprintf("%s_fake_%d_%d", prefix, rp.seq, i)
}

// response is the Response object: in response.created (in progress, no
// output), response.completed and response.failed, and as the
// non-streaming answer.
func (rp responsesReply) response(status string, output []map[string]any) map[string]any {
	r := map[string]any{"id": rp.responseID(), "object": "response", "status": status, "model": rp.model,
		"output": output}
	if status == "completed" {
		r["usage"] = rp.usage()
	}
	return r
}

func (rp responsesReply) usage() map[string]any {
	u := rp.turn.Usage
	if u.InputTokens == 0 {
		u.InputTokens = 100
	}
	if u.OutputTokens == 0 {
		u.OutputTokens = 10
	}
	return map[string]any{"input_tokens": u.InputTokens,
		"input_tokens_details":  map[string]int{"cached_tokens": u.CacheReadInputTokens},
		"output_tokens":         u.OutputTokens,
		"output_tokens_details": map[string]int{"reasoning_tokens": u.ReasoningTokens},
		"total_tokens":          u.InputTokens + u.OutputTokens}
}

// outputItems are the reply's blocks as complete output items: text and
// structured output as assistant messages (structured output is the
// message text, as with text.format json_schema), thinking as a reasoning
// item with a summary, tool calls as function calls.
func (rp responsesReply) outputItems() []map[string]any {
	out := make([]map[string]any, len(rp.turn.Reply))
	for i, b := range rp.turn.Reply {
		switch {
		case b.Text != nil:
			out[i] = rp.message(i, *b.Text)
		case b.StructuredOutput != nil:
			out[i] = rp.message(i, string(compactObject(b.StructuredOutput)))
		case b.Thinking != nil:
			out[i] = map[string]any{"type": "reasoning", "id": rp.itemID("rs", i),
				"summary": []any{map[string]string{"type": "summary_text", "text": *b.Thinking}}}
		case b.ToolUse != nil:
			out[i] = rp.functionCall(i, *b.ToolUse)
		case b.CustomToolCall != nil:
			out[i] = rp.customToolCall(i, *b.CustomToolCall)
		}
	}
	return out
}

func (rp responsesReply) message(i int, text string) map[string]any {
	return map[string]any{"type": "message", "id": rp.itemID("msg", i), "role": "assistant", "status": "completed",
		"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}}
}

func (rp responsesReply) functionCall(i int, tu ToolUse) map[string]any {
	id := tu.ID
	if id == "" {
		id = fmt.Sprintf("call_fake_%d_%d", rp.seq, i)
	}
	item := map[string]any{"type": "function_call", "id": rp.itemID("fc", i), "call_id": id, "name": tu.Name,
		"arguments": string(compactObject(tu.Input)), "status": "completed"}
	if tu.Namespace != "" {
		item["namespace"] = tu.Namespace
	}
	return item
}

func (rp responsesReply) customToolCall(i int, c CustomToolCall) map[string]any {
	id := c.ID
	if id == "" {
		id = fmt.Sprintf("call_fake_%d_%d", rp.seq, i)
	}
	return map[string]any{"type": "custom_tool_call", "id": rp.itemID("ctc", i), "call_id": id, "name": c.Name,
		"input": c.Input, "status": "completed"}
}

// events is the SSE sequence: response.created; per output item
// output_item.added, its deltas (text and reasoning summary word by word,
// function arguments in two halves) and output_item.done; then
// response.completed with usage. A mid-stream error replaces everything
// after response.created by response.failed.
func (rp responsesReply) events() []sseEvent {
	evs := []sseEvent{rp.ev("response.created", map[string]any{"response": rp.response("in_progress", []map[string]any{})})}
	if e := rp.turn.Error; e != nil {
		oe, _ := resolveOpenAIError(*e, rp.model)
		failed := rp.response("failed", []map[string]any{})
		failed["error"] = map[string]any{"code": oe.Code, "message": oe.Message}
		return append(evs, rp.ev("response.failed", map[string]any{"response": failed}))
	}
	items := rp.outputItems()
	for i, item := range items {
		evs = append(evs, rp.ev("response.output_item.added", map[string]any{"output_index": i, "item": startedItem(item)}))
		evs = append(evs, rp.itemDeltas(i, item)...)
		evs = append(evs, rp.ev("response.output_item.done", map[string]any{"output_index": i, "item": item}))
	}
	return append(evs, rp.ev("response.completed", map[string]any{"response": rp.response("completed", items)}))
}

// ev builds an event whose data carries its own name as "type", as the
// real API does.
func (rp responsesReply) ev(name string, data map[string]any) sseEvent {
	data["type"] = name
	return sseEvent{name: name, data: data}
}

func (rp responsesReply) delta(name string, data map[string]any) sseEvent {
	e := rp.ev(name, data)
	e.delta = true
	return e
}

// startedItem is an output item as output_item.added announces it: no
// content yet.
func startedItem(item map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range item {
		out[k] = v
	}
	switch item["type"] {
	case "message":
		out["content"], out["status"] = []any{}, "in_progress"
	case "reasoning":
		out["summary"] = []any{}
	case "function_call":
		out["arguments"], out["status"] = "", "in_progress"
	case "custom_tool_call":
		out["input"], out["status"] = "", "in_progress"
	}
	return out
}

func (rp responsesReply) itemDeltas(i int, item map[string]any) []sseEvent {
	id, _ := item["id"].(string)
	var evs []sseEvent
	switch item["type"] {
	case "message":
		text := item["content"].([]any)[0].(map[string]any)["text"].(string)
		for _, w := range words(text) {
			evs = append(evs, rp.delta("response.output_text.delta", map[string]any{"item_id": id, "output_index": i,
				"content_index": 0, "delta": w}))
		}
	case "reasoning":
		text := item["summary"].([]any)[0].(map[string]string)["text"]
		evs = append(evs, rp.ev("response.reasoning_summary_part.added", map[string]any{"item_id": id, "output_index": i,
			"summary_index": 0, "part": map[string]string{"type": "summary_text", "text": ""}}))
		for _, w := range words(text) {
			evs = append(evs, rp.delta("response.reasoning_summary_text.delta", map[string]any{"item_id": id,
				"output_index": i, "summary_index": 0, "delta": w}))
		}
	case "function_call":
		args := item["arguments"].(string)
		for _, part := range halves(args) {
			evs = append(evs, rp.delta("response.function_call_arguments.delta", map[string]any{"item_id": id,
				"output_index": i, "delta": part}))
		}
		evs = append(evs, rp.ev("response.function_call_arguments.done", map[string]any{"item_id": id,
			"output_index": i, "arguments": args}))
	}
	return evs
}
