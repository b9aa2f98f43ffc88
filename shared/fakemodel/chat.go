package fakemodel

import (
	"fmt"
	"net/http"
)

// APIChat is the OpenAI Chat Completions API (POST /v1/chat/completions),
// as OpenAI-compatible providers serve it (OpenCode's custom providers,
// gateways, local servers).
const APIChat = "chat"

// chatAPI serves the Chat Completions API. OpenAI-compatible clients join
// "/chat/completions" to a base URL that usually ends in /v1; both forms
// are served.
type chatAPI struct{ f *Fake }

func (a chatAPI) register(mux *http.ServeMux) {
	mux.HandleFunc("POST /v1/chat/completions", a.completions)
	mux.HandleFunc("POST /chat/completions", a.completions)
}

// completions answers one request with the next scripted turn.
func (a chatAPI) completions(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(w, r)
	req, facts, perr := parseChat(body)
	if err == nil {
		err = perr
	}
	e := newEntry(r, APIChat, facts, body)
	if err != nil {
		a.f.failOpenAI(w, a.f.log.add(e), openAIError{Status: 400, Type: "invalid_request_error", Message: err.Error()}, OutcomeError)
		return
	}
	if o := a.f.ollama; o != nil {
		if oe, refused := o.refusal(facts); refused {
			a.f.failOpenAI(w, a.f.log.add(e), oe, OutcomeError)
			return
		}
	}
	p, ok := a.f.queue.take(APIChat, facts)
	e.Turn, e.Fallback = p.Index, p.Fallback
	seq := a.f.log.add(e)
	if !ok {
		a.f.failOpenAI(w, seq, openAIError{Status: 400, Type: "invalid_request_error",
			Message: fmt.Sprintf("fakemodel: no scripted turn left for model %q, prompt %q", facts.Model, facts.Prompt)},
			OutcomeUnmatched)
		return
	}
	if out := a.f.wait(r.Context(), p.Turn.Delay.Duration); out != "" {
		a.f.log.finish(seq, 0, out)
		return
	}
	if p.Turn.Error != nil && !(p.Turn.Error.MidStream && facts.Stream) {
		oe, _ := resolveOpenAIError(*p.Turn.Error, facts.Model) // validated by New
		a.f.failOpenAI(w, seq, oe, OutcomeError)
		return
	}
	reply := chatReply{seq: seq, model: facts.Model, turn: p.Turn, usageChunk: req.StreamOptions.IncludeUsage,
		schemaContent: req.schemaContent(), logprobs: req.Logprobs}
	if !facts.Stream {
		writeJSON(w, seq, http.StatusOK, reply.completion())
		a.f.log.finish(seq, http.StatusOK, OutcomeCompleted)
		return
	}
	a.f.log.finish(seq, http.StatusOK, a.stream(w, r, reply))
}

// stream writes the reply as data-only chunks ended by "data: [DONE]" and
// returns the outcome to log.
func (a chatAPI) stream(w http.ResponseWriter, r *http.Request, reply chatReply) string {
	sse := startStream(w, "X-Request-Id", reply.seq)
	if out := a.f.writeEvents(r.Context(), sse, reply.turn.ChunkDelay.Duration, reply.chunks()); out != "" {
		return out
	}
	if reply.turn.Error != nil {
		return OutcomeError
	}
	if err := sse.raw("", "[DONE]"); err != nil {
		return OutcomeClientGone
	}
	if out := a.f.interrupted(r.Context()); out != "" {
		return out
	}
	return OutcomeCompleted
}
