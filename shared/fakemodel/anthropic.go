package fakemodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"
)

// anthropicAPI serves the Anthropic Messages API.
type anthropicAPI struct{ f *Fake }

func (a anthropicAPI) register(mux *http.ServeMux) {
	mux.HandleFunc("POST /v1/messages", a.messages)
	mux.HandleFunc("POST /v1/messages/count_tokens", a.countTokens)
}

// messages answers POST /v1/messages with the next scripted turn.
func (a anthropicAPI) messages(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(w, r)
	req, facts, perr := parseAnthropic(body)
	if err == nil {
		err = perr
	}
	e := newEntry(r, APIAnthropic, facts, body)
	if err != nil {
		a.fail(w, a.f.log.add(e), resolvedError{Status: 400, Type: "invalid_request_error", Message: err.Error()}, OutcomeError)
		return
	}
	p, ok := a.f.queue.take(APIAnthropic, facts)
	e.Turn, e.Fallback = p.Index, p.Fallback
	seq := a.f.log.add(e)
	if !ok {
		a.fail(w, seq, resolvedError{Status: 400, Type: "invalid_request_error",
			Message: fmt.Sprintf("fakemodel: no scripted turn left for model %q, prompt %q", facts.Model, facts.Prompt)},
			OutcomeUnmatched)
		return
	}
	if out := a.f.wait(r.Context(), p.Turn.Delay.Duration); out != "" {
		a.f.log.finish(seq, 0, out)
		return
	}
	if p.Turn.Error != nil && !(p.Turn.Error.MidStream && facts.Stream) {
		re, _ := p.Turn.Error.resolve(facts.Model) // validated by New
		a.fail(w, seq, re, OutcomeError)
		return
	}
	reply := anthropicReply{seq: seq, model: facts.Model, turn: p.Turn, forcedTool: req.forcedTool()}
	if !facts.Stream {
		writeJSON(w, seq, http.StatusOK, reply.message())
		a.f.log.finish(seq, http.StatusOK, OutcomeCompleted)
		return
	}
	a.f.log.finish(seq, http.StatusOK, a.stream(w, r, reply))
}

// countTokens answers POST /v1/messages/count_tokens with the script's
// fixed count.
func (a anthropicAPI) countTokens(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(w, r)
	_, facts, perr := parseAnthropic(body)
	if err == nil {
		err = perr
	}
	seq := a.f.log.add(newEntry(r, APIAnthropic, facts, body))
	if err != nil {
		a.fail(w, seq, resolvedError{Status: 400, Type: "invalid_request_error", Message: err.Error()}, OutcomeError)
		return
	}
	writeJSON(w, seq, http.StatusOK, map[string]int{"input_tokens": a.f.countTokens})
	a.f.log.finish(seq, http.StatusOK, OutcomeCompleted)
}

func (a anthropicAPI) fail(w http.ResponseWriter, seq int, e resolvedError, outcome string) {
	writeAnthropicError(w, seq, e)
	a.f.log.finish(seq, e.Status, outcome)
}

// stream writes the reply as the Messages API's SSE sequence and returns
// the outcome to log.
func (a anthropicAPI) stream(w http.ResponseWriter, r *http.Request, reply anthropicReply) string {
	sse := startStream(w, "Request-Id", reply.seq)
	if out := a.f.writeEvents(r.Context(), sse, reply.turn.ChunkDelay.Duration, reply.events()); out != "" {
		return out
	}
	if out := a.f.interrupted(r.Context()); out != "" {
		return out
	}
	if reply.turn.Error != nil {
		return OutcomeError
	}
	return OutcomeCompleted
}

// anthropicReply renders one scripted turn in the Messages API's shapes.
type anthropicReply struct {
	seq   int
	model string
	turn  Turn
	// forcedTool is the tool the request forces with tool_choice: a
	// structuredOutput block is a call of it (else of StructuredOutput,
	// Claude Code's structured-output tool).
	forcedTool string
}

type sseEvent struct {
	name  string
	data  any
	delta bool // a content delta: ChunkDelay is waited between two of them
}

// events is the SSE sequence: message_start, per block content_block_start
// / deltas / content_block_stop (a ping after the first start, as the real
// API sends), message_delta with stop_reason and usage, message_stop. A
// mid-stream error replaces everything after message_start.
func (rp anthropicReply) events() []sseEvent {
	u := rp.usage()
	start := map[string]any{"id": rp.messageID(), "type": "message", "role": "assistant", "model": rp.model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]int{"input_tokens": u.InputTokens, "output_tokens": 1,
			"cache_creation_input_tokens": u.CacheCreationInputTokens, "cache_read_input_tokens": u.CacheReadInputTokens}}
	evs := []sseEvent{{name: "message_start", data: map[string]any{"type": "message_start", "message": start}}}
	if e := rp.turn.Error; e != nil {
		re, _ := e.resolve(rp.model)
		return append(evs, sseEvent{name: "error", data: errorBody(re)})
	}
	for i, b := range rp.blocks() {
		evs = append(evs, sseEvent{name: "content_block_start", data: map[string]any{
			"type": "content_block_start", "index": i, "content_block": emptyBlock(b)}})
		if i == 0 {
			evs = append(evs, sseEvent{name: "ping", data: map[string]string{"type": "ping"}})
		}
		for _, d := range blockDeltas(b) {
			evs = append(evs, sseEvent{name: "content_block_delta", delta: true, data: map[string]any{
				"type": "content_block_delta", "index": i, "delta": d}})
		}
		evs = append(evs, sseEvent{name: "content_block_stop", data: map[string]any{"type": "content_block_stop", "index": i}})
	}
	return append(evs,
		sseEvent{name: "message_delta", data: map[string]any{"type": "message_delta",
			"delta": map[string]any{"stop_reason": rp.stopReason(), "stop_sequence": nil},
			"usage": map[string]int{"output_tokens": u.OutputTokens}}},
		sseEvent{name: "message_stop", data: map[string]string{"type": "message_stop"}})
}

// message is the non-streaming response: one Message object.
func (rp anthropicReply) message() map[string]any {
	u := rp.usage()
	content := []any{}
	for _, b := range rp.blocks() {
		content = append(content, b)
	}
	return map[string]any{"id": rp.messageID(), "type": "message", "role": "assistant", "model": rp.model,
		"content": content, "stop_reason": rp.stopReason(), "stop_sequence": nil,
		"usage": map[string]int{"input_tokens": u.InputTokens, "output_tokens": u.OutputTokens,
			"cache_creation_input_tokens": u.CacheCreationInputTokens, "cache_read_input_tokens": u.CacheReadInputTokens}}
}

func (rp anthropicReply) messageID() string { return "msg_fake_" + strconv.Itoa(rp.seq) }

func (rp anthropicReply) usage() Usage {
	u := rp.turn.Usage
	if u.InputTokens == 0 {
		u.InputTokens = 100
	}
	if u.OutputTokens == 0 {
		u.OutputTokens = 10
	}
	return u
}

func (rp anthropicReply) stopReason() string {
	if rp.turn.StopReason != "" {
		return rp.turn.StopReason
	}
	for _, b := range rp.turn.Reply {
		if b.ToolUse != nil || b.StructuredOutput != nil || b.CustomToolCall != nil {
			return "tool_use"
		}
	}
	return "end_turn"
}

// contentBlock is a complete content block in the API's shape.
type contentBlock struct {
	Type      string          `json:"type"`
	Text      *string         `json:"text,omitempty"`
	Thinking  *string         `json:"thinking,omitempty"`
	Signature *string         `json:"signature,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
}

// blocks turns the scripted blocks into API content blocks.
func (rp anthropicReply) blocks() []contentBlock {
	out := make([]contentBlock, len(rp.turn.Reply))
	for i, b := range rp.turn.Reply {
		switch {
		case b.Text != nil:
			out[i] = contentBlock{Type: "text", Text: b.Text}
		case b.Thinking != nil:
			sig := b.Signature
			if sig == "" {
				sig = "fakesig"
			}
			out[i] = contentBlock{Type: "thinking", Thinking: b.Thinking, Signature: &sig}
		case b.ToolUse != nil:
			id := b.ToolUse.ID
			if id == "" {
				id = fmt.Sprintf("toolu_fake_%d_%d", rp.seq, i)
			}
			out[i] = contentBlock{Type: "tool_use", ID: id, Name: b.ToolUse.Name, Input: compactObject(b.ToolUse.Input)}
		case b.StructuredOutput != nil:
			out[i] = contentBlock{Type: "tool_use", ID: fmt.Sprintf("toolu_fake_%d_%d", rp.seq, i),
				Name: orDefault(rp.forcedTool, "StructuredOutput"), Input: compactObject(b.StructuredOutput)}
		case b.CustomToolCall != nil:
			in, _ := json.Marshal(map[string]string{"input": b.CustomToolCall.Input})
			out[i] = contentBlock{Type: "tool_use", ID: fmt.Sprintf("toolu_fake_%d_%d", rp.seq, i), Name: b.CustomToolCall.Name, Input: in}
		}
	}
	return out
}

// emptyBlock is the block as content_block_start announces it.
func emptyBlock(b contentBlock) contentBlock {
	empty := ""
	switch b.Type {
	case "text":
		return contentBlock{Type: "text", Text: &empty}
	case "thinking":
		return contentBlock{Type: "thinking", Thinking: &empty, Signature: &empty}
	default:
		return contentBlock{Type: b.Type, ID: b.ID, Name: b.Name, Input: json.RawMessage("{}")}
	}
}

// blockDeltas splits a block into content_block_delta payloads: text and
// thinking word by word (so a ChunkDelay makes a slow stream), the
// signature in one piece, tool input JSON in two halves so clients must
// join partial_json.
func blockDeltas(b contentBlock) []map[string]string {
	var out []map[string]string
	switch b.Type {
	case "text":
		for _, w := range words(*b.Text) {
			out = append(out, map[string]string{"type": "text_delta", "text": w})
		}
	case "thinking":
		for _, w := range words(*b.Thinking) {
			out = append(out, map[string]string{"type": "thinking_delta", "thinking": w})
		}
		out = append(out, map[string]string{"type": "signature_delta", "signature": *b.Signature})
	default:
		for _, part := range halves(string(b.Input)) {
			out = append(out, map[string]string{"type": "input_json_delta", "partial_json": part})
		}
	}
	return out
}

// words splits s after each space, keeping the spaces, so the pieces join
// back to s exactly.
func words(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, ' ')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// halves splits s in two at a rune boundary near the middle.
func halves(s string) []string {
	mid := len(s) / 2
	for mid > 0 && !utf8.RuneStart(s[mid]) {
		mid--
	}
	if mid == 0 {
		return []string{s}
	}
	return []string{s[:mid], s[mid:]}
}

func compactObject(raw json.RawMessage) json.RawMessage {
	if raw == nil {
		return json.RawMessage("{}")
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return raw // cannot happen: Script.Validate checked it is an object
	}
	return buf.Bytes()
}

func errorBody(e resolvedError) map[string]any {
	return map[string]any{"type": "error", "error": map[string]string{"type": e.Type, "message": e.Message}}
}

// writeAnthropicError writes an API error the way the real API does: HTTP
// status, JSON error body, retry-after and any scripted headers.
func writeAnthropicError(w http.ResponseWriter, seq int, e resolvedError) {
	for k, v := range e.Headers {
		w.Header().Set(k, v)
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	writeJSON(w, seq, e.Status, errorBody(e))
}

func writeJSON(w http.ResponseWriter, seq, status int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Request-Id", requestID(seq))
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func requestID(seq int) string { return "req_fake_" + strconv.Itoa(seq) }
