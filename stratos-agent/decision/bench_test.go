package decision

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
)

// The benchmarks compare a decision with a bare HTTP call to the same
// fake endpoint: the host's share of a decision's overhead (resolving the
// configuration, the schema, validation, events), to be read as a ratio
// of the two (docs/design/decision.md). Run with
// go test -run '^$' -bench 'Decision|BareChat' ./decision/
func BenchmarkDecision(b *testing.B) {
	srv := benchOllama(b)
	a := &Asker{HTTP: &http.Client{}, Getenv: func(string) string { return srv }}
	req := Request{Question: agentproto.Question{Kind: agentproto.QuestionChoice, Prompt: "Which one?",
		Options: []agentproto.ChoiceOption{{ID: "red"}, {ID: "blue"}}}, Layers: []Layer{layer("o", `{"provider": "ollama", "model": "qwen3:8b"}`)}}
	emit := func(eventapi.Details) {}
	if _, err := a.Decide(context.Background(), req, emit); err != nil { // the model's check, once
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := a.Decide(context.Background(), req, emit); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBareChat is one POST /api/chat with the same body a decision
// sends, its answer read: the floor a decision is measured against.
func BenchmarkBareChat(b *testing.B) {
	srv := benchOllama(b)
	body := []byte(`{"model":"qwen3:8b","messages":[{"role":"system","content":"Reply with JSON."},{"role":"user","content":"Which one?"}],"stream":false,"format":{"type":"object"}}`)
	hc := &http.Client{}
	for b.Loop() {
		resp, err := hc.Post(srv+"/api/chat", "application/json", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
	}
}

func benchOllama(b *testing.B) string {
	b.Helper()
	return fakeOllama(b, `[{"repeat": true, "reply": [{"structuredOutput": {"answer": "blue"}}]}]`).URL
}
