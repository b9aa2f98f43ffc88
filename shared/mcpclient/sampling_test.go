//lint:file-ignore SA1019 sampling is deprecated as of protocol 2026-07-28 (SEP-2577), but sessions on 2025-11-25 and earlier use it: the test checks the capability Stratos declares for it.

package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/fakemcp"
	"github.com/stratoscli/stratos/shared/mcpdecl"
)

// samplingServer is the test server with the summarize tool over HTTP,
// declared with the given sampling policy.
func samplingServer(t *testing.T, legacy bool, policy string) mcpdecl.Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	url := fakemcp.Serve(ctx, ln, fakemcp.Options{Legacy: legacy, Sample: true})
	return mcpdecl.Server{Name: "fake", Transport: mcpdecl.TransportHTTP, URL: url, Sampling: policy}
}

// model stands for the decision's model: it records what it was asked.
type model struct {
	mu    sync.Mutex
	asked []SamplingRequest
}

func (m *model) sample(_ context.Context, r SamplingRequest) (SamplingReply, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.asked = append(m.asked, r)
	return SamplingReply{Text: "A one-line summary.", Model: "qwen3:8b", StopReason: "endTurn"}, nil
}

func (m *model) requests() []SamplingRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.asked
}

// summarize calls the summarize tool; it returns the tool's text, or the
// call's failure as text.
func summarize(t *testing.T, server mcpdecl.Server, m *model, args map[string]any) (string, error) {
	t.Helper()
	c, err := Connect(context.Background(), server, Options{Sample: m.sample})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	res, err := c.Session.CallTool(context.Background(), &mcp.CallToolParams{Name: fakemcp.SummarizeTool, Arguments: args})
	if err != nil {
		return "", err
	}
	text, _ := res.Content[0].(*mcp.TextContent)
	if text == nil {
		t.Fatalf("content %#v", res.Content)
	}
	if res.IsError {
		return "", errors.New(text.Text)
	}
	return text.Text, nil
}

// A server declared with sampling: decision gets its sampling request
// answered by the model: the system prompt, the text turns and maxTokens
// go to it, its text, model and stop reason come back. Both protocol
// generations: initialize-era sessions get sampling/createMessage, modern
// ones a multi round-trip input request.
func TestSamplingAnsweredByTheModel(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		t.Run(map[bool]string{false: "modern", true: "legacy"}[legacy], func(t *testing.T) {
			var m model
			got, err := summarize(t, samplingServer(t, legacy, mcpdecl.SamplingDecision), &m, map[string]any{"text": "a long text", "maxTokens": 40})
			if err != nil {
				t.Fatal(err)
			}
			var res struct {
				Content    mcp.TextContent `json:"content"`
				Model      string          `json:"model"`
				Role       string          `json:"role"`
				StopReason string          `json:"stopReason"`
			}
			if err := json.Unmarshal([]byte(got), &res); err != nil {
				t.Fatalf("%s: %v", got, err)
			}
			if res.Content.Text != "A one-line summary." || res.Model != "qwen3:8b" || res.Role != "assistant" || res.StopReason != "endTurn" {
				t.Errorf("result %s", got)
			}
			asked := m.requests()
			want := SamplingRequest{System: fakemcp.SummarizeSystem, MaxTokens: 40, Messages: []SamplingMessage{{Role: "user", Text: "Summarise: a long text"}}}
			if len(asked) != 1 || asked[0].System != want.System || asked[0].MaxTokens != want.MaxTokens || len(asked[0].Messages) != 1 || asked[0].Messages[0] != want.Messages[0] {
				t.Errorf("the model was asked %+v, want %+v", asked, want)
			}
		})
	}
}

// Without the opt-in no sampling capability is declared, whatever the
// client could answer with, and the server's request fails without a
// model call.
func TestSamplingOffUnlessDeclared(t *testing.T) {
	var m model
	server := samplingServer(t, true, "")
	if o := (&Client{}).clientOptions(server, Options{Sample: m.sample}); o.Capabilities.Sampling != nil || o.CreateMessageWithToolsHandler != nil {
		t.Fatalf("sampling offered without the opt-in: %+v", o.Capabilities)
	}
	if o := (&Client{}).clientOptions(samplingServer(t, true, mcpdecl.SamplingDecision), Options{Sample: m.sample}); o.Capabilities.Sampling == nil || o.Capabilities.Sampling.Tools != nil {
		t.Fatalf("sampling with the opt-in: %+v", o.Capabilities.Sampling)
	}
	if _, err := summarize(t, server, &m, map[string]any{"text": "x"}); err == nil {
		t.Fatal("a server that was not offered sampling got an answer")
	}
	if len(m.requests()) != 0 {
		t.Errorf("the model was asked %+v", m.requests())
	}
}

// A request with an image, or with tools, is refused with an error the
// server sees, without a model call.
func TestSamplingRefusesImagesAndTools(t *testing.T) {
	for name, c := range map[string]struct {
		args map[string]any
		want string
	}{
		"image": {map[string]any{"text": "x", "image": true}, "messages[0]: image content is not supported (text only)"},
		"tools": {map[string]any{"text": "x", "tools": true}, "tool use in sampling is not supported"},
	} {
		for _, legacy := range []bool{false, true} {
			t.Run(name+map[bool]string{false: "-modern", true: "-legacy"}[legacy], func(t *testing.T) {
				var m model
				_, err := summarize(t, samplingServer(t, legacy, mcpdecl.SamplingDecision), &m, c.args)
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Errorf("error %v, want one saying %q", err, c.want)
				}
				if len(m.requests()) != 0 {
					t.Errorf("the model was asked %+v", m.requests())
				}
			})
		}
	}
}
