package fakemodel

import (
	"fmt"
	"net/http"
	"strings"
)

// APIGemini is the Gemini API (generativelanguage v1beta): POST
// /v1beta/models/<model>:generateContent, :streamGenerateContent (SSE with
// alt=sse) and :countTokens, as Gemini CLI calls it when
// GOOGLE_GEMINI_BASE_URL points at the fake.
const APIGemini = "gemini"

// geminiAPI serves the Gemini API. The model and the method share the last
// path segment ("gemini-2.5-flash:streamGenerateContent").
type geminiAPI struct{ f *Fake }

func (a geminiAPI) register(mux *http.ServeMux) {
	mux.HandleFunc("POST /v1beta/models/{call}", a.call)
}

func (a geminiAPI) call(w http.ResponseWriter, r *http.Request) {
	model, method, _ := strings.Cut(r.PathValue("call"), ":")
	switch method {
	case "generateContent", "streamGenerateContent":
		a.generate(w, r, model, method == "streamGenerateContent")
	case "countTokens":
		body, _ := readBody(w, r)
		seq := a.f.log.add(newEntry(r, APIGemini, Facts{Model: model}, body))
		writeJSON(w, seq, http.StatusOK, map[string]int{"totalTokens": a.f.countTokens})
		a.f.log.finish(seq, http.StatusOK, OutcomeCompleted)
	default:
		body, _ := readBody(w, r)
		seq := a.f.log.add(newEntry(r, APIGemini, Facts{Model: model}, body))
		a.fail(w, seq, geminiError{Status: 404, State: "NOT_FOUND", Message: fmt.Sprintf("fakemodel: unknown method %q", method)}, OutcomeError)
	}
}

// generate answers one generateContent request with the next scripted
// turn, whole or streamed.
func (a geminiAPI) generate(w http.ResponseWriter, r *http.Request, model string, stream bool) {
	body, err := readBody(w, r)
	facts, perr := parseGemini(body, model, stream)
	if err == nil {
		err = perr
	}
	e := newEntry(r, APIGemini, facts, body)
	e.Auth = geminiAuthKind(r.Header, e.Auth)
	if err != nil {
		a.fail(w, a.f.log.add(e), geminiError{Status: 400, State: "INVALID_ARGUMENT", Message: err.Error()}, OutcomeError)
		return
	}
	p, ok := a.f.queue.take(APIGemini, facts)
	e.Turn, e.Fallback = p.Index, p.Fallback
	seq := a.f.log.add(e)
	if !ok {
		a.fail(w, seq, geminiError{Status: 400, State: "INVALID_ARGUMENT",
			Message: fmt.Sprintf("fakemodel: no scripted turn left for model %q, prompt %q", facts.Model, facts.Prompt)}, OutcomeUnmatched)
		return
	}
	if out := a.f.wait(r.Context(), p.Turn.Delay.Duration); out != "" {
		a.f.log.finish(seq, 0, out)
		return
	}
	if p.Turn.Error != nil {
		ge, _ := resolveGeminiError(*p.Turn.Error, model) // validated by New
		a.fail(w, seq, ge, OutcomeError)
		return
	}
	reply := geminiReply{seq: seq, model: model, turn: p.Turn}
	if !stream {
		writeJSON(w, seq, http.StatusOK, reply.response())
		a.f.log.finish(seq, http.StatusOK, OutcomeCompleted)
		return
	}
	sse := startStream(w, "X-Request-Id", seq)
	if out := a.f.writeEvents(r.Context(), sse, p.Turn.ChunkDelay.Duration, reply.chunks()); out != "" {
		a.f.log.finish(seq, http.StatusOK, out)
		return
	}
	a.f.log.finish(seq, http.StatusOK, OutcomeCompleted)
}

// geminiAuthKind names the Gemini API's key header, which the shared
// classification does not know.
func geminiAuthKind(h http.Header, other string) string {
	if h.Get("X-Goog-Api-Key") != "" {
		return "x-goog-api-key"
	}
	return other
}

func (a geminiAPI) fail(w http.ResponseWriter, seq int, e geminiError, outcome string) {
	writeJSON(w, seq, e.Status, map[string]any{"error": map[string]any{"code": e.Status, "message": e.Message, "status": e.State}})
	a.f.log.finish(seq, e.Status, outcome)
}
