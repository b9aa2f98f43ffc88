package claudecode

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/fakemodel"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/tools"
)

func TestModelNotFoundFallsBackToTheNextCandidateWithTheSamePrompt(t *testing.T) {
	b := newBed(t, `{"turns":[
	  {"match":{"model":"claude-opus-4-7"},"repeat":true,"error":{"kind":"not_found"}},
	  {"match":{"model":"claude-sonnet-4-5","marker":"[first]"},"reply":[{"text":"sonnet answers"}]},
	  {"match":{"model":"claude-sonnet-4-5","marker":"[second]"},"reply":[{"text":"still sonnet"}]}
	]}`)
	a := b.adapter(adapter.Spec{Models: []string{"anthropic/claude-opus-4-7", "anthropic/claude-sonnet-4-5"}}, nil)
	if got := mustExecute(t, a, "[first] hello").Text; got != "sonnet answers" {
		t.Fatalf("reply %q", got)
	}
	if got := mustExecute(t, a, "[second] again").Text; got != "still sonnet" {
		t.Fatalf("second reply %q (the conversation must stay pinned)", got)
	}
	var sonnet []string
	for _, r := range b.modelRequests() {
		if r.Model == "claude-sonnet-4-5" {
			sonnet = append(sonnet, r.Prompt)
		}
	}
	if !slices.Equal(sonnet, []string{"[first] hello", "[second] again"}) {
		t.Errorf("prompts sent to the fallback %q", sonnet)
	}
	// The fallback starts a fresh conversation: the rejected prompt is not in it twice.
	if first := b.modelRequests(); strings.Count(string(lastBody(first, "claude-sonnet-4-5", "[first] hello")), "[first] hello") != 1 {
		t.Errorf("the original prompt was replayed into the fallback's conversation")
	}
	ev := b.eventsOf("model.unavailable")
	if len(ev) != 1 || ev[0].Details["model"] != "anthropic/claude-opus-4-7" || ev[0].Details["next"] != "anthropic/claude-sonnet-4-5" {
		t.Errorf("model.unavailable events %+v", ev)
	}
}

func lastBody(es []fakemodel.Entry, model, prompt string) []byte {
	var out []byte
	for _, e := range es {
		if e.Model == model && e.Prompt == prompt {
			out = e.Body
		}
	}
	return out
}

func TestRateLimitDoesNotFallBack(t *testing.T) {
	b := newBed(t, `{"turns":[
	  {"match":{"model":"claude-opus-4-7"},"repeat":true,"error":{"kind":"rate_limit","retryAfter":0}}
	]}`)
	a := b.adapter(adapter.Spec{Models: []string{"anthropic/claude-opus-4-7", "anthropic/claude-sonnet-4-5"}}, nil)
	_, err := a.Execute(ctx(t), "hello")
	wantCode(t, err, agentproto.CodeExecution)
	for _, r := range b.modelRequests() {
		if r.Model != "claude-opus-4-7" {
			t.Errorf("a rate limit advanced to %s", r.Model)
		}
	}
}

func TestEveryCandidateUnavailable(t *testing.T) {
	b := newBed(t, `{"turns":[{"repeat":true,"error":{"kind":"not_found"}}]}`)
	a := b.adapter(adapter.Spec{Models: []string{"anthropic/claude-opus-4-7", "anthropic/claude-sonnet-4-5"}}, nil)
	_, err := a.Execute(ctx(t), "hello")
	wantCode(t, err, agentproto.CodeModelUnavailable)
	var ae *agentproto.Error
	if !errors.As(err, &ae) || ae.Details["selectable"] != true {
		t.Errorf("an exhausted list before any work must stay selectable for the host: %+v", ae)
	}
}

func TestOnlySelectedMCPServersAndRemovedToolsAbsent(t *testing.T) {
	b := newBed(t, `{"turns":[{"match":{"marker":"[tools]"},"reply":[{"text":"ok"}]}]}`)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	servers := map[string]map[string]any{}
	for _, name := range []string{"alpha", "beta"} {
		servers[name] = map[string]any{"type": "stdio", "command": exe, "env": map[string]any{envMCPServer: name}}
	}
	resolve := func(_ string, names []string) (map[string]map[string]any, error) {
		out := map[string]map[string]any{}
		for _, n := range names {
			out[n] = servers[n]
		}
		return out, nil
	}
	spec := adapter.Spec{Name: "tester", Models: []string{"anthropic/claude-opus-4-7"}, WorkingDirectory: b.work,
		AllowedMcps: []string{"alpha"}, Tools: tools.Selection{DisallowedTools: []string{"shell", "write"}}}
	a, err := NewFactory(Options{Environ: func() []string { return b.env }, MCPServers: resolve})(spec, b.record, &testHooks{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close(context.Background())
	if err := a.Initialize(ctx(t)); err != nil {
		t.Fatal(err)
	}
	mustExecute(t, a, "[tools] list")
	offered := b.modelRequests()[0].Tools
	body := string(b.modelRequests()[0].Body)
	// MCP tools may be offered directly or deferred behind ToolSearch; either
	// way the name reaches the model, and only the selected server's.
	if !strings.Contains(body, "mcp__alpha__alpha_echo") {
		t.Errorf("the selected server's tool is not offered: %v", offered)
	}
	if strings.Contains(body, "beta_echo") {
		t.Errorf("an unselected server's tool is offered")
	}
	for _, removed := range []string{"Bash", "Write"} {
		if slices.Contains(offered, removed) {
			t.Errorf("removed tool %s offered: %v", removed, offered)
		}
	}
	if !slices.Contains(offered, "Read") {
		t.Errorf("Read missing: %v", offered)
	}
}

func TestNoCredentialsIsAnAuthenticationError(t *testing.T) {
	b := newBed(t, `{"turns":[]}`)
	var env []string
	for _, kv := range b.env {
		if !strings.HasPrefix(kv, "ANTHROPIC_API_KEY=") {
			env = append(env, kv)
		}
	}
	a, err := NewFactory(Options{Environ: func() []string { return env }})(adapter.Spec{Name: "tester", Models: []string{"anthropic/claude-opus-4-7"}, WorkingDirectory: b.work}, b.record, &testHooks{})
	if err != nil {
		t.Fatal(err)
	}
	err = a.Initialize(ctx(t))
	wantCode(t, err, agentproto.CodeAuthentication)
	if !strings.Contains(err.Error(), "claude-code") {
		t.Errorf("error does not name the harness: %v", err)
	}
	if len(b.requests()) != 0 {
		t.Errorf("the model was called without credentials")
	}
}
