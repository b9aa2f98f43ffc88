package claudecode

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
	"github.com/stratoscli/stratos/stratos-agent/adapter/mcpconfig"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
	"github.com/stratoscli/stratos/stratos-agent/tools"
)

func TestRateLimitDoesNotFallBack(t *testing.T) {
	b := newBed(t, `{"turns":[
	  {"match":{"model":"claude-opus-4-7"},"repeat":true,"error":{"kind":"rate_limit","retryAfter":0}}
	]}`)
	a := b.adapter(adapter.Spec{Models: []string{"anthropic/claude-opus-4-7"}}, nil)
	_, err := a.Execute(ctx(t), "hello")
	wantCode(t, err, agentproto.CodeExecution)
	if rejection.TryNext(err) {
		t.Errorf("a rate limit lets the selector try another candidate: %v", err)
	}
	for _, r := range b.modelRequests() {
		if r.Model != "claude-opus-4-7" {
			t.Errorf("a rate limit advanced to %s", r.Model)
		}
	}
}

func TestOnlySelectedMCPServersAndRemovedToolsAbsent(t *testing.T) {
	b := newBed(t, `{"turns":[{"match":{"marker":"[tools]"},"reply":[{"text":"ok"}]}]}`)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	resolve := func(_ string, names []string) ([]mcpconfig.Server, error) {
		var out []mcpconfig.Server
		for _, n := range names {
			out = append(out, mcpconfig.Server{Name: n, Type: "stdio", Command: exe, Env: map[string]string{envMCPServer: n}})
		}
		return out, nil
	}
	spec := adapter.Spec{Name: "tester", Models: []string{"anthropic/claude-opus-4-7"}, WorkingDirectory: b.Work,
		AllowedMcps: []string{"alpha"}, Tools: tools.Selection{DisallowedTools: []string{"shell", "write"}}}
	a, err := NewFactory(Options{Environ: b.Environ, MCPServers: resolve})(spec, b.Record, &adaptertest.Hooks{})
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

// A turn that ends without a StructuredOutput call (the model ignored the
// CLI's enforcement nudge) is a structured-output error: the text is
// never parsed instead.
func TestStructuredOutputWithoutTheDeliveryToolIsAnError(t *testing.T) {
	b := newBed(t, `{"turns":[
	  {"match":{"marker":"[prose]"},"reply":[{"text":"just prose"}]},
	  {"match":{"marker":"[structured-output-enforce]"},"reply":[{"text":"still prose"}]}
	]}`)
	a := b.adapter(adapter.Spec{OutputSchema: json.RawMessage(`{"type":"object"}`)}, nil)
	_, err := a.Execute(ctx(t), "[prose] give me one")
	wantCode(t, err, agentproto.CodeStructuredOutput)
}
