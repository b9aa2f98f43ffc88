package fakemodel

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
)

// APIOllama names the requests of Ollama's native API (/api/tags,
// /api/show, /api/version) in the log. They take no turns: the script's
// Ollama inventory answers them.
const APIOllama = "ollama"

// Ollama makes the fake behave as an Ollama server: its native API
// reports this inventory, and its OpenAI-compatible endpoints (the
// Responses API at /v1/responses, Chat Completions at
// /v1/chat/completions) answer only installed models; the Responses API
// treats namespace tools the way Ollama is reported to.
type Ollama struct {
	// Version is /api/version's answer (default "0.12.3").
	Version string `json:"version,omitempty"`
	// Models are the installed models, in /api/tags order.
	Models []OllamaModel `json:"models"`
	// NamespaceTools is how the Responses endpoint treats a namespace tool
	// (how Codex offers MCP tools): "flatten" (default: accepted, and a
	// scripted call in a namespace comes back as one function call named
	// "<namespace>.<name>", without the namespace, as Ollama is reported
	// to answer) or "reject" (HTTP 400 "Unsupported tool type").
	NamespaceTools string `json:"namespaceTools,omitempty"`

	mu sync.RWMutex // Models, once the server runs: Pull adds to them
}

// OllamaModel is one entry of the inventory.
type OllamaModel struct {
	// Name is the full name with its tag, e.g. "qwen3:8b".
	Name string `json:"name"`
	// Capabilities as /api/show reports them (default: completion, tools).
	Capabilities []string `json:"capabilities,omitempty"`
	// ContextLength is the architecture's advertised limit
	// (model_info "<family>.context_length"; default 40960).
	ContextLength int `json:"contextLength,omitempty"`
	// NumCtx and NumPredict are the model's saved parameters (0: not set).
	NumCtx     int `json:"numCtx,omitempty"`
	NumPredict int `json:"numPredict,omitempty"`
	// Family is the architecture (default "qwen3").
	Family       string `json:"family,omitempty"`
	Digest       string `json:"digest,omitempty"`
	Quantization string `json:"quantization,omitempty"`
	// Remote marks a cloud entry (remote_host set, nothing installed).
	Remote bool `json:"remote,omitempty"`
}

func (o *Ollama) validate() error {
	switch o.NamespaceTools {
	case "", "flatten", "reject":
	default:
		return fmt.Errorf("namespaceTools: unknown %q (known: flatten, reject)", o.NamespaceTools)
	}
	seen := map[string]bool{}
	for i, m := range o.Models {
		if m.Name == "" || !strings.Contains(m.Name, ":") {
			return fmt.Errorf("models[%d]: name %q needs its tag (e.g. qwen3:8b)", i, m.Name)
		}
		if seen[m.Name] {
			return fmt.Errorf("models[%d]: %s is listed twice", i, m.Name)
		}
		seen[m.Name] = true
		if m.ContextLength < 0 || m.NumCtx < 0 {
			return fmt.Errorf("models[%d]: negative context", i)
		}
	}
	return nil
}

func (o *Ollama) version() string {
	if o.Version == "" {
		return "0.12.3"
	}
	return o.Version
}

// Pull adds name (with its tag) to the inventory of a running server, as
// `ollama pull` would: /api/tags lists it from then on, and its requests
// are answered.
func (o *Ollama) Pull(name string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !strings.Contains(name, ":") {
		return fmt.Errorf("pull %q: the name needs its tag (e.g. qwen3:8b)", name)
	}
	for _, m := range o.Models {
		if m.Name == name {
			return fmt.Errorf("pull %s: already installed", name)
		}
	}
	o.Models = append(o.Models, OllamaModel{Name: name})
	return nil
}

// installed is the inventory as it is now.
func (o *Ollama) installed() []OllamaModel {
	o.mu.RLock()
	defer o.mu.RUnlock()
	return slices.Clone(o.Models)
}

// model finds name (an omitted tag means :latest, as in Ollama).
func (o *Ollama) model(name string) (OllamaModel, bool) {
	if !strings.Contains(name[strings.LastIndex(name, "/")+1:], ":") {
		name += ":latest"
	}
	for _, m := range o.installed() {
		if m.Name == name {
			return m, true
		}
	}
	return OllamaModel{}, false
}

func (m OllamaModel) family() string {
	if m.Family == "" {
		return "qwen3"
	}
	return m.Family
}

func (m OllamaModel) digest() string {
	if m.Digest == "" {
		return "sha256:" + strings.Repeat("0", 52) + fmt.Sprintf("%012x", len(m.Name))
	}
	return m.Digest
}

func (m OllamaModel) capabilities() []string {
	if m.Capabilities == nil {
		return []string{"completion", "tools"}
	}
	return m.Capabilities
}

func (m OllamaModel) details() map[string]any {
	q := m.Quantization
	if q == "" {
		q = "Q4_K_M"
	}
	return map[string]any{"format": "gguf", "family": m.family(), "families": []string{m.family()},
		"parameter_size": "8.2B", "quantization_level": q}
}

// tagsEntry is the model as /api/tags lists it.
func (m OllamaModel) tagsEntry() map[string]any {
	e := map[string]any{"name": m.Name, "model": m.Name, "modified_at": "2026-11-30T10:00:00Z",
		"size": 5_200_000_000, "digest": m.digest(), "details": m.details()}
	if m.Remote {
		e["remote_model"], e["remote_host"], e["size"] = m.Name, "https://ollama.com:443", 384
	}
	return e
}

// showReply is /api/show's answer: parameters as Ollama's text block,
// the architecture's context length in model_info.
func (m OllamaModel) showReply() map[string]any {
	ctx := m.ContextLength
	if ctx == 0 {
		ctx = 40960
	}
	var params []string
	if m.NumCtx > 0 {
		params = append(params, fmt.Sprintf("num_ctx                        %d", m.NumCtx))
	}
	if m.NumPredict != 0 {
		params = append(params, fmt.Sprintf("num_predict                    %d", m.NumPredict))
	}
	params = append(params, `stop                           "<|im_end|>"`)
	r := map[string]any{"license": "", "modelfile": "# Modelfile generated by fakemodel\nFROM " + m.Name + "\n",
		"parameters": strings.Join(params, "\n"), "template": "{{ .Prompt }}", "details": m.details(),
		"model_info":   map[string]any{"general.architecture": m.family(), m.family() + ".context_length": ctx},
		"capabilities": m.capabilities(), "modified_at": "2026-11-30T10:00:00Z"}
	if m.Remote {
		r["remote_model"], r["remote_host"] = m.Name, "https://ollama.com:443"
	}
	return r
}

// ollamaAPI serves Ollama's native inventory endpoints.
type ollamaAPI struct{ f *Fake }

func (a ollamaAPI) register(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/version", a.version)
	mux.HandleFunc("GET /api/tags", a.tags)
	mux.HandleFunc("POST /api/show", a.show)
}

func (a ollamaAPI) version(w http.ResponseWriter, r *http.Request) {
	a.answer(w, r, nil, http.StatusOK, map[string]any{"version": a.f.ollama.version()})
}

func (a ollamaAPI) tags(w http.ResponseWriter, r *http.Request) {
	installed := a.f.ollama.installed()
	models := make([]map[string]any, len(installed))
	for i, m := range installed {
		models[i] = m.tagsEntry()
	}
	a.answer(w, r, nil, http.StatusOK, map[string]any{"models": models})
}

func (a ollamaAPI) show(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(w, r)
	var req struct {
		Model string `json:"model"`
		Name  string `json:"name"` // the older spelling
	}
	if err == nil {
		err = json.Unmarshal(body, &req)
	}
	name := req.Model
	if name == "" {
		name = req.Name
	}
	if err == nil && name == "" {
		err = errors.New("model is required")
	}
	if err != nil {
		a.answer(w, r, body, http.StatusBadRequest, map[string]any{"error": err.Error()})
		return
	}
	m, ok := a.f.ollama.model(name)
	if !ok {
		a.answer(w, r, body, http.StatusNotFound, map[string]any{"error": fmt.Sprintf("model '%s' not found", name)})
		return
	}
	a.answer(w, r, body, http.StatusOK, m.showReply())
}

func (a ollamaAPI) answer(w http.ResponseWriter, r *http.Request, body []byte, status int, v any) {
	e := newEntry(r, APIOllama, Facts{}, body)
	seq := a.f.log.add(e)
	writeJSON(w, seq, status, v)
	outcome := OutcomeCompleted
	if status >= 400 {
		outcome = OutcomeError
	}
	a.f.log.finish(seq, status, outcome)
}

// ollamaRefusal is Ollama's answer on its OpenAI-compatible endpoints to a
// request it does not serve: a model that is not installed, or (with
// NamespaceTools "reject") a namespace tool. ok is false when it serves
// the request.
func (o *Ollama) refusal(facts Facts) (openAIError, bool) {
	if _, installed := o.model(facts.Model); !installed {
		return openAIError{Status: 404, Type: "api_error", Code: "",
			Message: fmt.Sprintf("model %q not found, try pulling it first", facts.Model)}, true
	}
	if o.NamespaceTools == "reject" {
		for _, t := range facts.Tools {
			if strings.Contains(t, "/") { // a namespace's function, see toolNames
				return openAIError{Status: 400, Type: "invalid_request_error",
					Message: "Failed to parse tools: Unsupported tool type: namespace"}, true
			}
		}
	}
	return openAIError{}, false
}

// flattenCalls renders a scripted call in a namespace the way Ollama is
// reported to return it: one function call named "<namespace>.<name>",
// without the namespace Codex needs to dispatch it.
func flattenCalls(t Turn) Turn {
	reply := make([]Block, len(t.Reply))
	for i, b := range t.Reply {
		if b.ToolUse != nil && b.ToolUse.Namespace != "" {
			tu := *b.ToolUse
			tu.Name, tu.Namespace = tu.Namespace+"."+tu.Name, ""
			b.ToolUse = &tu
		}
		reply[i] = b
	}
	t.Reply = reply
	return t
}
