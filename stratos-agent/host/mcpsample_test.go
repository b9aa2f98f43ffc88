package host

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/fakemcp"
)

// startSampling starts a host whose workflow declares the test server
// with the summarize tool twice, opted in to sampling (sampler) and not
// (plain), and a decision section on the fake Ollama at baseURL.
func startSampling(t *testing.T, legacy bool, baseURL string) *fixture {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	t.Setenv("SAMPLE_URL", fakemcp.Serve(ctx, ln, fakemcp.Options{Legacy: legacy, Sample: true}))
	f := startMCP(t, "    sampler: {url: \"${SAMPLE_URL}\", sampling: decision}\n    plain: {url: \"${SAMPLE_URL}\"}\n", 10*time.Second)
	yaml := "name: wf\nshortDescription: x\nlongDescription: x\n" +
		"decision: {provider: ollama, model: \"qwen3:8b\", baseUrl: \"" + baseURL + "\"}\n" +
		"mcp:\n  servers:\n    sampler: {url: \"${SAMPLE_URL}\", sampling: decision}\n    plain: {url: \"${SAMPLE_URL}\"}\n"
	if err := os.WriteFile(filepath.Join(f.dir, "workflow.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// A server declared with sampling: decision gets its sampling request
// answered by the workflow's decision model (Ollama here): the answer's
// text, model and stop reason reach the server, the system prompt and
// maxTokens reach the model, and the request's usage is a usage event of
// the client's execution.
func TestSamplingAnsweredWithTheDecisionModel(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		t.Run(map[bool]string{false: "modern", true: "legacy"}[legacy], func(t *testing.T) {
			srv := fakeOllama(t, `[{"reply": [{"text": "Short."}], "stopReason": "max_tokens", "usage": {"inputTokens": 25, "outputTokens": 3}}]`)
			f := startSampling(t, legacy, srv.URL)
			if _, err := f.mcpConnect("c1", "top", "sampler"); err != nil {
				t.Fatal(err)
			}
			res, err := f.mcpCall("c1", fakemcp.SummarizeTool, map[string]any{"text": "a long text", "maxTokens": 3})
			if err != nil {
				t.Fatal(err)
			}
			got := string(res.Content)
			for _, want := range []string{`\"text\":\"Short.\"`, `\"model\":\"qwen3:8b\"`, `\"stopReason\":\"maxTokens\"`} {
				if !strings.Contains(got, want) {
					t.Errorf("result %s, want %s", got, want)
				}
			}
			usage := f.waitEvent(eventapi.TypeUsage)
			if u := usage.Details.(*eventapi.Usage); usage.ExecutionID != "top" || usage.IDs.MCPClientID != "c1" || u.Provider != "ollama" || u.InputTokens != 25 || u.OutputTokens != 3 {
				t.Errorf("usage event %+v %+v", usage, u)
			}
			entries := srv.Log().Entries()
			chat := entries[len(entries)-1]
			if chat.Path != "/api/chat" || len(chat.System) != 1 || chat.System[0] != fakemcp.SummarizeSystem || chat.Prompt != "Summarise: a long text" ||
				!strings.Contains(string(chat.Body), `"num_predict":3`) {
				t.Errorf("model request %s: %s", chat.Path, chat.Body)
			}
		})
	}
}

// A server not declared with sampling gets none: its request fails and
// no model is asked.
func TestSamplingNotOfferedWithoutTheOptIn(t *testing.T) {
	srv := fakeOllama(t, `[{"reply": [{"text": "Short."}]}]`)
	f := startSampling(t, true, srv.URL)
	if _, err := f.mcpConnect("c1", "top", "plain"); err != nil {
		t.Fatal(err)
	}
	res, err := f.mcpCall("c1", fakemcp.SummarizeTool, map[string]any{"text": "x"})
	if err == nil && !res.IsError {
		t.Fatalf("a server without the opt-in got an answer: %s", res.Content)
	}
	if n := len(srv.Log().Entries()); n != 0 {
		t.Errorf("the model was asked %d times", n)
	}
}

// The decision configuration the SDK sends with mcp.connect answers:
// the invocation's overrides over workflow.yaml's section, here the test
// provider's script (as a stratos test case's decisions give it).
func TestSamplingUsesTheInvocationsOverrides(t *testing.T) {
	srv := fakeOllama(t, `[]`)
	f := startSampling(t, true, srv.URL)
	var res agentproto.MCPConnectResult
	err := f.client.Call(context.Background(), agentproto.MethodMCPConnect, agentproto.MCPConnectParams{
		ClientID: "c1", ExecutionID: "top", Workflow: agentproto.WorkflowRef{Name: "wf", Dir: f.dir}, Server: "sampler",
		Decision: &agentproto.DecisionLayers{YAML: json.RawMessage(`{"provider": "ollama", "model": "qwen3:8b", "baseUrl": "` + srv.URL + `"}`),
			Overrides: json.RawMessage(`{"provider": "test", "script": [{"when": {"promptContains": "long"}, "text": "Scripted summary."}]}`)}}, &res)
	if err != nil {
		t.Fatal(err)
	}
	call, err := f.mcpCall("c1", fakemcp.SummarizeTool, map[string]any{"text": "a long text"})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(call.Content); !strings.Contains(got, `Scripted summary.`) || !strings.Contains(got, `\"model\":\"qwen3:8b\"`) {
		t.Errorf("result %s", got)
	}
	if n := len(srv.Log().Entries()); n != 0 {
		t.Errorf("the model was asked %d times", n)
	}
}

// A model call that fails is an error to the server with its code only:
// the server does not learn the workflow's endpoint or model.
func TestSamplingFailureTellsTheServerItsCode(t *testing.T) {
	srv := fakeOllama(t, `[]`)
	f := startSampling(t, true, srv.URL)
	var res agentproto.MCPConnectResult
	err := f.client.Call(context.Background(), agentproto.MethodMCPConnect, agentproto.MCPConnectParams{
		ClientID: "c1", ExecutionID: "top", Workflow: agentproto.WorkflowRef{Name: "wf", Dir: f.dir}, Server: "sampler",
		Decision: &agentproto.DecisionLayers{YAML: json.RawMessage(`{"provider": "ollama", "model": "absent:1b", "baseUrl": "` + srv.URL + `"}`)}}, &res)
	if err != nil {
		t.Fatal(err)
	}
	call, err := f.mcpCall("c1", fakemcp.SummarizeTool, map[string]any{"text": "x"})
	got := fmt.Sprint(err)
	if call != nil {
		got += string(call.Content)
	}
	if !strings.Contains(got, "the client's model call failed (decision_model_unavailable)") || strings.Contains(got, srv.URL) || strings.Contains(got, "absent") {
		t.Errorf("the server saw %s", got)
	}
}
