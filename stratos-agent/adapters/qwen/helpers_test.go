package qwen

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/fakemodel"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
	"github.com/stratoscli/stratos/stratos-agent/adapter/catalog"
	"github.com/stratoscli/stratos/stratos-agent/adapter/mcpconfig"
)

// qwenBin is the pinned Qwen Code of the test cache.
func qwenBin(t *testing.T) string {
	t.Helper()
	return adaptertest.CLI(t, "STRATOS_TEST_QWEN", "@qwen-code/qwen-code")
}

func testLog(t *testing.T) hclog.Logger { return adaptertest.TraceLog(t, "QWEN_TEST_TRACE") }

// fixedCatalog answers every model with one candidate whose native ID is
// the model ID's last segment (test models are not in the real catalog).
type fixedCatalog struct{}

func (fixedCatalog) Candidates(_ context.Context, q catalog.Query) ([]catalog.Candidate, error) {
	out := make([]catalog.Candidate, len(q.Models))
	for i, m := range q.Models {
		native := m[strings.LastIndex(m, "/")+1:]
		out[i] = catalog.Candidate{Harness: Harness, Model: m, Provider: "openai", NativeID: native, Native: catalog.Native{Model: native}}
	}
	return out, nil
}

// bed is one test against the real CLI: the kit's bed with the fake
// Chat Completions API at OPENAI_BASE_URL.
type bed struct{ *adaptertest.Bed }

// qwenBed points the CLI at the fake, with a fake API key when withKey.
func qwenBed(t *testing.T, script fakemodel.Script, withKey bool) *bed {
	t.Helper()
	bin := qwenBin(t)
	b := adaptertest.NewBed(t, script)
	b.Env = append(b.Env, EnvBinary+"="+bin, "OPENAI_BASE_URL="+b.Server.URL+"/v1")
	if withKey {
		b.Env = append(b.Env, "OPENAI_API_KEY=fake-openai-key-000")
	}
	return &bed{b}
}

// options bind the adapter to the bed: its environment, a catalog that
// knows the test models, no MCP server.
func (b *bed) options() Options {
	return Options{Log: testLog(b.T), Environ: b.Environ, Catalog: fixedCatalog{},
		MCPServers: func(string, []string) ([]mcpconfig.Server, error) { return nil, nil }}
}

// chatRequests are the Chat Completions requests a fake model saw;
// Conversation is the text of every message but the system ones.
func chatRequests(entries []fakemodel.Entry) []adaptertest.Request {
	var out []adaptertest.Request
	for _, e := range entries {
		if e.API != fakemodel.APIChat {
			continue
		}
		var body struct {
			Messages []struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		_ = json.Unmarshal(e.Body, &body)
		var conv []string
		for _, m := range body.Messages {
			if m.Role != "system" && m.Role != "developer" {
				conv = append(conv, string(m.Content))
			}
		}
		r := adaptertest.Request{System: e.System, Prompt: e.Prompt, Conversation: strings.Join(conv, "\n")}
		for _, tr := range e.ToolResults {
			r.ToolResults = append(r.ToolResults, adaptertest.ToolResult{Content: tr.Content, IsError: tr.IsError})
		}
		out = append(out, r)
	}
	return out
}
