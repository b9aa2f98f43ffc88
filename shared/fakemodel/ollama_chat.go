package fakemodel

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// APIOllamaChat is Ollama's native chat API (POST /api/chat): what
// Stratos's decisions call, with the answer's JSON Schema in "format".
// Unlike the inventory endpoints (APIOllama), its requests take turns.
const APIOllamaChat = "ollama-chat"

// ollamaChatAPI serves /api/chat on a fake with an Ollama inventory.
type ollamaChatAPI struct{ f *Fake }

func (a ollamaChatAPI) register(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/chat", a.chat)
}

// ollamaChatRequest is the part of a /api/chat body the fake reads;
// options (temperature, seed, …) stay in the log's Body.
type ollamaChatRequest struct {
	Model    string `json:"model"`
	Stream   *bool  `json:"stream"` // Ollama streams unless told not to
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
	Format json.RawMessage `json:"format"`
	Tools  []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

// parseOllamaChat decodes a /api/chat body into Facts: System holds every
// system message, Prompt the newest non-empty user message, Schema the
// requested format (a JSON Schema, or "json").
func parseOllamaChat(body []byte) (ollamaChatRequest, Facts, error) {
	var req ollamaChatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return req, Facts{}, fmt.Errorf("request body is not an Ollama chat request: %w", err)
	}
	f := Facts{Model: req.Model, Stream: req.Stream == nil || *req.Stream, System: []string{}, SystemMessages: []string{},
		Tools: []string{}, ToolResults: []ToolResult{}, Messages: len(req.Messages), Schema: req.Format}
	for _, t := range req.Tools {
		f.Tools = append(f.Tools, t.Function.Name)
	}
	if req.Model == "" {
		return req, f, errors.New("model is required")
	}
	for _, m := range req.Messages {
		switch m.Role {
		case "system":
			f.System = append(f.System, m.Content)
		case "user":
			if strings.TrimSpace(m.Content) != "" {
				f.Prompt = m.Content
			}
		}
	}
	return req, f, nil
}

// chat answers one request with the next scripted turn: as one JSON
// object with stream false, else as newline-delimited JSON chunks ending
// with a done chunk, as Ollama does. A model the inventory lacks gets
// Ollama's 404 without taking a turn.
func (a ollamaChatAPI) chat(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(w, r)
	_, facts, perr := parseOllamaChat(body)
	if err == nil {
		err = perr
	}
	e := newEntry(r, APIOllamaChat, facts, body)
	if err != nil {
		a.fail(w, a.f.log.add(e), http.StatusBadRequest, err.Error(), OutcomeError)
		return
	}
	if _, installed := a.f.ollama.model(facts.Model); !installed {
		a.fail(w, a.f.log.add(e), http.StatusNotFound, fmt.Sprintf("model '%s' not found", facts.Model), OutcomeError)
		return
	}
	p, ok := a.f.queue.take(APIOllamaChat, facts)
	e.Turn, e.Fallback = p.Index, p.Fallback
	seq := a.f.log.add(e)
	if !ok {
		a.fail(w, seq, http.StatusBadRequest, fmt.Sprintf("fakemodel: no scripted turn left for model %q, prompt %q", facts.Model, facts.Prompt), OutcomeUnmatched)
		return
	}
	if out := a.f.wait(r.Context(), p.Turn.Delay.Duration); out != "" {
		a.f.log.finish(seq, 0, out)
		return
	}
	if te := p.Turn.Error; te != nil && !(te.MidStream && facts.Stream) {
		oe, _ := resolveOpenAIError(*te, facts.Model) // validated by New
		a.fail(w, seq, oe.Status, oe.Message, OutcomeError)
		return
	}
	reply := ollamaChatReply{model: facts.Model, turn: p.Turn}
	if !facts.Stream {
		writeJSON(w, seq, http.StatusOK, reply.final(reply.text()))
		a.f.log.finish(seq, http.StatusOK, OutcomeCompleted)
		return
	}
	a.f.log.finish(seq, http.StatusOK, a.stream(w, r, seq, reply))
}

// stream writes the reply as NDJSON: the content word by word, then the
// done chunk with the counts; a mid-stream error is an {"error": …} line.
func (a ollamaChatAPI) stream(w http.ResponseWriter, r *http.Request, seq int, reply ollamaChatReply) string {
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Request-Id", requestID(seq))
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	line := func(v any) bool {
		b, _ := json.Marshal(v)
		if _, err := w.Write(append(b, '\n')); err != nil {
			return false
		}
		if fl != nil {
			fl.Flush()
		}
		return true
	}
	if te := reply.turn.Error; te != nil {
		oe, _ := resolveOpenAIError(*te, reply.model)
		line(map[string]any{"error": oe.Message})
		return OutcomeError
	}
	for i, word := range words(reply.text()) {
		if i > 0 {
			if out := a.f.wait(r.Context(), reply.turn.ChunkDelay.Duration); out != "" {
				return out
			}
		}
		if !line(reply.chunk(word)) {
			return OutcomeClientGone
		}
	}
	if !line(reply.final("")) {
		return OutcomeClientGone
	}
	return OutcomeCompleted
}

// fail writes Ollama's error shape: {"error": message}.
func (a ollamaChatAPI) fail(w http.ResponseWriter, seq, status int, message, outcome string) {
	writeJSON(w, seq, status, map[string]any{"error": message})
	a.f.log.finish(seq, status, outcome)
}

// ollamaChatReply renders one scripted turn in /api/chat's shapes.
type ollamaChatReply struct {
	model string
	turn  Turn
}

// text is the message content: the text blocks, and each structuredOutput
// block as its compact JSON (what a model constrained by format writes).
func (rp ollamaChatReply) text() string {
	s := ""
	for _, b := range rp.turn.Reply {
		switch {
		case b.Text != nil:
			s += *b.Text
		case b.StructuredOutput != nil:
			s += string(compactObject(b.StructuredOutput))
		}
	}
	return s
}

func (rp ollamaChatReply) message(content string) map[string]any {
	m := map[string]any{"role": "assistant", "content": content}
	for _, b := range rp.turn.Reply {
		if b.Thinking != nil {
			m["thinking"] = *b.Thinking
		}
	}
	return m
}

func (rp ollamaChatReply) chunk(content string) map[string]any {
	return map[string]any{"model": rp.model, "created_at": "2026-12-01T10:00:00Z", "message": map[string]any{"role": "assistant", "content": content}, "done": false}
}

// final is the non-streaming answer, or the done chunk ending a stream
// (content ""): the done reason and the counts, prompt_eval_count being
// the input tokens and eval_count the output tokens.
func (rp ollamaChatReply) final(content string) map[string]any {
	u := rp.turn.Usage
	if u.InputTokens == 0 {
		u.InputTokens = 100
	}
	if u.OutputTokens == 0 {
		u.OutputTokens = 10
	}
	reason := "stop"
	if rp.turn.StopReason == "max_tokens" {
		reason = "length"
	}
	return map[string]any{"model": rp.model, "created_at": "2026-12-01T10:00:00Z", "message": rp.message(content),
		"done": true, "done_reason": reason, "total_duration": 5_000_000, "load_duration": 1_000_000,
		"prompt_eval_count": u.InputTokens, "prompt_eval_duration": 2_000_000,
		"eval_count": u.OutputTokens, "eval_duration": 2_000_000}
}
