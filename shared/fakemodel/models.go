package fakemodel

import (
	"net/http"
	"slices"
)

// APIModels names the model list requests in the log; they take no turns.
const APIModels = "models"

// modelsAPI serves a script's hosted model list: the list as OpenAI's
// GET /v1/models answers it (an OpenAI-style base URL ends in /v1, so
// /models is served too), and one model as both OpenAI and Anthropic
// answer GET /v1/models/{id}, with 404 for a model not listed.
type modelsAPI struct{ f *Fake }

func (a modelsAPI) register(mux *http.ServeMux) {
	mux.HandleFunc("GET /v1/models", a.list)
	mux.HandleFunc("GET /models", a.list)
	mux.HandleFunc("GET /v1/models/{id...}", a.model)
	mux.HandleFunc("GET /models/{id...}", a.model)
}

// modelEntry is one model in both APIs' shapes (OpenAI's object and owned_by,
// Anthropic's type and display_name).
func modelEntry(id string) map[string]any {
	return map[string]any{"id": id, "object": "model", "created": 0, "owned_by": "fakemodel", "type": "model", "display_name": id}
}

func (a modelsAPI) list(w http.ResponseWriter, r *http.Request) {
	seq := a.f.log.add(newEntry(r, APIModels, Facts{}, nil))
	data := []any{}
	for _, id := range a.f.models {
		data = append(data, modelEntry(id))
	}
	writeJSON(w, seq, http.StatusOK, map[string]any{"object": "list", "data": data, "has_more": false})
	a.f.log.finish(seq, http.StatusOK, OutcomeCompleted)
}

func (a modelsAPI) model(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	seq := a.f.log.add(newEntry(r, APIModels, Facts{Model: id}, nil))
	if !slices.Contains(a.f.models, id) {
		oe, _ := resolveOpenAIError(ErrorReply{Kind: "not_found"}, id)
		a.f.failOpenAI(w, seq, oe, OutcomeError)
		return
	}
	writeJSON(w, seq, http.StatusOK, modelEntry(id))
	a.f.log.finish(seq, http.StatusOK, OutcomeCompleted)
}
