package fakemodel

import (
	"fmt"
	"net/http"
)

// responsesAPI serves the OpenAI Responses API as Codex calls it: POST
// {base_url}/responses, streamed. Azure-style base URLs end in /openai, so
// /openai/responses is served too.
type responsesAPI struct{ f *Fake }

func (a responsesAPI) register(mux *http.ServeMux) {
	mux.HandleFunc("POST /v1/responses", a.responses)
	mux.HandleFunc("POST /openai/responses", a.responses)
	mux.HandleFunc("POST /openai/v1/responses", a.responses)
}

// responses answers one request with the next scripted turn.
func (a responsesAPI) responses(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(w, r)
	facts, perr := parseResponses(body)
	if err == nil {
		err = perr
	}
	e := newEntry(r, APIResponses, facts, body)
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
	p, ok := a.f.queue.take(APIResponses, facts)
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
	turn := p.Turn
	if a.f.ollama != nil {
		turn = flattenCalls(turn)
	}
	reply := responsesReply{seq: seq, model: facts.Model, turn: turn}
	if !facts.Stream {
		writeJSON(w, seq, http.StatusOK, reply.response("completed", reply.outputItems()))
		a.f.log.finish(seq, http.StatusOK, OutcomeCompleted)
		return
	}
	a.f.log.finish(seq, http.StatusOK, a.stream(w, r, reply))
}

// stream writes the reply as the Responses API's SSE sequence and returns
// the outcome to log.
func (a responsesAPI) stream(w http.ResponseWriter, r *http.Request, reply responsesReply) string {
	sse := startStream(w, "X-Request-Id", reply.seq)
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
