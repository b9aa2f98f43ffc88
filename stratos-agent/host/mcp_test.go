package host

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/fakemcp"
	"github.com/stratoscli/stratos/stratos-agent/jsonrpc"
)

// startMCP starts a host for a workflow whose mcp.servers are the given
// YAML, with two test servers on loopback: $MODERN_URL and $LEGACY_URL.
func startMCP(t *testing.T, serversYAML string, timeout time.Duration) *fixture {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	for env, legacy := range map[string]bool{"MODERN_URL": false, "LEGACY_URL": true} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		t.Setenv(env, fakemcp.Serve(ctx, ln, fakemcp.Options{Legacy: legacy, Links: true, Elicit: true, Notifications: true}))
	}
	dir := t.TempDir()
	yaml := "name: wf\nshortDescription: x\nlongDescription: x\nmcp:\n  servers:\n" + serversYAML
	if err := os.WriteFile(filepath.Join(dir, "workflow.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := New(Options{Home: t.TempDir(), MCPTimeout: timeout, ElicitTimeout: elicitTestTimeout, Candidates: func(context.Context, []string) ([]candidate, error) { return nil, nil }})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	hostConn := jsonrpc.New(inR, outW, h.Handle, func(err error) { t.Logf("host: %v", err) })
	h.SetPeer(hostConn)
	f := &fixture{t: t, dir: dir, runDir: filepath.Join(t.TempDir(), "run"), hooks: map[string]func(json.RawMessage) (any, error){},
		events: make(chan eventapi.Event, 1000), calls: map[string]int{}}
	f.client = jsonrpc.New(outR, inW, f.handle, func(err error) { t.Logf("client: %v", err) })
	served := make(chan struct{})
	go func() {
		_ = hostConn.Serve(context.Background())
		_ = h.Close(context.Background())
		_ = outW.Close()
		close(served)
	}()
	go func() { _ = f.client.Serve(context.Background()) }()
	f.closeIn = func() { _ = inW.Close(); <-served }
	t.Cleanup(f.closeIn)
	err = f.client.Call(context.Background(), agentproto.MethodInitialize, agentproto.InitializeParams{
		ProtocolVersion: agentproto.ProtocolVersion, ExecutionID: "top", RunDir: f.runDir, Settings: &defaults, Events: true}, &agentproto.InitializeResult{})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) mcpConnect(id, execID, server string) (*agentproto.MCPConnectResult, error) {
	var res agentproto.MCPConnectResult
	err := f.client.Call(context.Background(), agentproto.MethodMCPConnect, agentproto.MCPConnectParams{
		ClientID: id, ExecutionID: execID, Workflow: agentproto.WorkflowRef{Name: "wf", Dir: f.dir}, Server: server}, &res)
	return &res, err
}

func (f *fixture) mcpCall(id, tool string, args any) (*agentproto.MCPCallResult, error) {
	raw, _ := json.Marshal(args)
	var res agentproto.MCPCallResult
	err := f.client.Call(context.Background(), agentproto.MethodMCPCall, agentproto.MCPCallParams{ClientID: id, Tool: tool, Arguments: raw}, &res)
	return &res, err
}

// mcpRequest sends one MCP method and decodes its result into out.
func (f *fixture) mcpRequest(method string, params, out any) error {
	return f.client.Call(context.Background(), method, params, out)
}

// errCode returns the agent error code of a failed call and its details.
func errCode(t *testing.T, err error) (string, map[string]any) {
	t.Helper()
	var re *jsonrpc.RemoteError
	if !errors.As(err, &re) {
		t.Fatalf("want an error response, got %v", err)
	}
	d := re.AgentError()
	return d.Code, d.Details
}

const twoServers = "    modern: {url: \"${MODERN_URL}\"}\n    legacy: {url: \"${LEGACY_URL}\"}\n"

func TestDirectClientsCallToolsOnModernAndLegacyServers(t *testing.T) {
	f := startMCP(t, twoServers, time.Minute)
	for server, version := range map[string]string{"modern": "2026-07-28", "legacy": "2025-11-25"} {
		res, err := f.mcpConnect("c-"+server, "top", server)
		if err != nil {
			t.Fatal(err)
		}
		if res.ProtocolVersion != version {
			t.Errorf("%s: protocol %s, want %s", server, res.ProtocolVersion, version)
		}
		out, err := f.mcpCall("c-"+server, "add", map[string]any{"a": 2, "b": 40})
		if err != nil {
			t.Fatal(err)
		}
		if string(out.StructuredContent) != `{"sum":42}` || out.IsError {
			t.Errorf("%s add: %+v", server, out)
		}
	}
	// isError is a result here; the SDK turns it into McpToolError.
	out, err := f.mcpCall("c-modern", "fail", map[string]any{"message": "no such issue"})
	if err != nil || !out.IsError || !strings.Contains(string(out.Content), "no such issue") {
		t.Fatalf("fail: %+v %v", out, err)
	}
	// An unknown tool is the server's protocol error.
	_, err = f.mcpCall("c-modern", "nope", map[string]any{})
	if code, _ := errCode(t, err); code != agentproto.CodeMCPProtocol {
		t.Errorf("unknown tool: code %s (%v)", code, err)
	}
}

func TestDirectClientCallsRunConcurrentlyAndReportProgress(t *testing.T) {
	// The barrier tool answers only once all four calls are in flight
	// together: a host serving them one at a time would hit the timeout.
	f := startMCP(t, twoServers, 30*time.Second)
	if _, err := f.mcpConnect("c", "top", "modern"); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Go(func() {
			_, err := f.mcpCall("c", "barrier", map[string]any{"key": "k", "n": 4})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.mcpCall("c", "slow", map[string]any{"millis": 20, "steps": 2}); err != nil {
		t.Fatal(err)
	}
	for step := 1; step <= 2; step++ {
		e := f.waitEvent("mcp.progress")
		if d := e.Details.(*eventapi.MCPProgress); d.Server != "modern" || e.IDs.MCPClientID != "c" || d.Progress != float64(step) {
			t.Fatalf("progress event %+v", e)
		}
	}
}

func TestDirectClientTimeoutIsTypedAndNotRetried(t *testing.T) {
	f := startMCP(t, twoServers, 300*time.Millisecond)
	if _, err := f.mcpConnect("c", "top", "modern"); err != nil {
		t.Fatal(err)
	}
	_, err := f.mcpCall("c", "slow", map[string]any{"millis": 10000})
	if code, details := errCode(t, err); code != agentproto.CodeMCPTimeout || details["tool"] != "slow" {
		t.Fatalf("code %s details %v (%v)", code, details, err)
	}
	// The client stays usable after a timeout.
	if _, err := f.mcpCall("c", "echo", map[string]any{"text": "still here"}); err != nil {
		t.Fatal(err)
	}
}

func TestExecutionCloseClosesItsClientsAndCancelsPendingCalls(t *testing.T) {
	f := startMCP(t, twoServers, time.Minute)
	if _, err := f.mcpConnect("child", "exec-child", "modern"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.mcpConnect("top", "top", "legacy"); err != nil {
		t.Fatal(err)
	}
	pending := make(chan error, 1)
	go func() {
		_, err := f.mcpCall("child", "slow", map[string]any{"millis": 60000})
		pending <- err
	}()
	time.Sleep(50 * time.Millisecond) // let the call start; the assertion does not depend on it
	if err := f.client.Call(context.Background(), agentproto.MethodExecutionClose, agentproto.ExecutionRef{ExecutionID: "exec-child"}, &agentproto.CloseResult{}); err != nil {
		t.Fatal(err)
	}
	if code, _ := errCode(t, <-pending); code != agentproto.CodeMCPConnection {
		t.Errorf("pending call: code %s", code)
	}
	if _, err := f.mcpCall("child", "echo", map[string]any{"text": "x"}); err == nil {
		t.Error("a closed client still answers")
	}
	if _, err := f.mcpCall("top", "echo", map[string]any{"text": "x"}); err != nil {
		t.Errorf("another execution's client was closed: %v", err)
	}
	// Connecting for an execution that has ended is refused.
	if _, err := f.mcpConnect("late", "exec-child", "modern"); err == nil {
		t.Error("connect for a closed execution succeeded")
	}
}

// A server that never answers fails the connect after its connect timeout,
// not the five minutes of a call, and the error names the workflow, the
// server, the timeout and the field that raises it.
func TestDirectClientConnectTimeout(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close() })
	t.Setenv("WEDGED_URL", "http://"+ln.Addr().String()+"/mcp")
	f := startMCP(t, "    wedged: {url: \"${WEDGED_URL}\", connectTimeout: 300ms}\n", time.Hour)
	_, err = f.mcpConnect("w", "top", "wedged")
	code, details := errCode(t, err)
	if code != agentproto.CodeMCPConnection || details["server"] != "wedged" || details["timeout"] != "300ms" {
		t.Fatalf("code %s, details %v: %v", code, details, err)
	}
	for _, want := range []string{`workflow wf: MCP server "wedged" did not answer the MCP handshake`, "within 300ms", "raise mcp.servers.wedged.connectTimeout in " + filepath.Join(f.dir, "workflow.yaml")} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

func TestDirectClientConfigurationErrors(t *testing.T) {
	f := startMCP(t, twoServers+"    secret: {url: \"${MODERN_URL}\", headers: {Authorization: \"Bearer ${NO_SUCH_TOKEN}\"}}\n    down: {url: \"http://127.0.0.1:1/mcp\"}\n", time.Minute)
	_, err := f.mcpConnect("a", "top", "undeclared")
	if code, _ := errCode(t, err); code != agentproto.CodeMCPConfiguration || !strings.Contains(err.Error(), "mcp.servers.undeclared") {
		t.Errorf("undeclared: %s %v", code, err)
	}
	_, err = f.mcpConnect("b", "top", "secret")
	if code, details := errCode(t, err); code != agentproto.CodeMCPConfiguration || details["variable"] != "NO_SUCH_TOKEN" {
		t.Errorf("missing variable: %s %v %v", code, details, err)
	}
	_, err = f.mcpConnect("c", "top", "down")
	if code, details := errCode(t, err); code != agentproto.CodeMCPConnection || details["server"] != "down" {
		t.Errorf("unreachable: %s %v %v", code, details, err)
	}
}

// Resources, templates and prompts reach workflow code on the client's
// connection, both protocol generations: lists, text and blob reads, a
// tool result's resource link followed, and the errors' codes.
func TestDirectClientsReadResourcesAndPrompts(t *testing.T) {
	f := startMCP(t, twoServers, time.Minute)
	for _, server := range []string{"modern", "legacy"} {
		t.Run(server, func(t *testing.T) {
			id := "c-" + server
			if _, err := f.mcpConnect(id, "top", server); err != nil {
				t.Fatal(err)
			}
			ref := agentproto.MCPClientRef{ClientID: id}
			var resources agentproto.MCPResourcesResult
			if err := f.mcpRequest(agentproto.MethodMCPResources, ref, &resources); err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(resources.Resources); got != "[{fake://counter counter  How often touch was called. text/plain 0} {fake://logo.png logo  A binary resource. image/png 0} {fake://readme readme  A static text resource. text/plain 0}]" {
				t.Errorf("resources = %s", got)
			}
			var templates agentproto.MCPResourceTemplatesResult
			if err := f.mcpRequest(agentproto.MethodMCPResourceTemplates, ref, &templates); err != nil {
				t.Fatal(err)
			}
			if len(templates.ResourceTemplates) != 2 || templates.ResourceTemplates[0].URITemplate != fakemcp.IssueTemplate {
				t.Errorf("templates = %+v", templates.ResourceTemplates)
			}
			var prompts agentproto.MCPPromptsResult
			if err := f.mcpRequest(agentproto.MethodMCPPrompts, ref, &prompts); err != nil {
				t.Fatal(err)
			}
			if len(prompts.Prompts) != 1 || prompts.Prompts[0].Name != fakemcp.GreetPrompt || !prompts.Prompts[0].Arguments[0].Required {
				t.Errorf("prompts = %+v", prompts.Prompts)
			}
			var prompt agentproto.MCPGetPromptResult
			if err := f.mcpRequest(agentproto.MethodMCPGetPrompt, agentproto.MCPGetPromptParams{ClientID: id, Name: fakemcp.GreetPrompt, Arguments: map[string]string{"name": "Ada"}}, &prompt); err != nil {
				t.Fatal(err)
			}
			if len(prompt.Messages) != 1 || prompt.Messages[0].Role != "user" || string(prompt.Messages[0].Content) != `{"type":"text","text":"Say hello to Ada."}` {
				t.Errorf("prompt = %+v", prompt)
			}

			// The tool's result links to the issue and the logo; each link
			// is read by its URI.
			call, err := f.mcpCall(id, fakemcp.OpenIssueTool, map[string]any{"id": 7})
			if err != nil {
				t.Fatal(err)
			}
			var content []struct{ Type, URI string }
			if err := json.Unmarshal(call.Content, &content); err != nil {
				t.Fatal(err)
			}
			var links []string
			for _, c := range content {
				if c.Type == "resource_link" {
					links = append(links, c.URI)
				}
			}
			if fmt.Sprint(links) != "[fake://issues/7 fake://logo.png]" {
				t.Fatalf("links = %v (content %s)", links, call.Content)
			}
			var issue agentproto.MCPReadResourceResult
			if err := f.mcpRequest(agentproto.MethodMCPReadResource, agentproto.MCPReadResourceParams{ClientID: id, URI: links[0]}, &issue); err != nil {
				t.Fatal(err)
			}
			if len(issue.Contents) != 1 || issue.Contents[0].Text == nil || *issue.Contents[0].Text != "Issue 7" || issue.Contents[0].Blob != nil {
				t.Errorf("issue = %+v", issue.Contents)
			}
			var logo agentproto.MCPReadResourceResult
			if err := f.mcpRequest(agentproto.MethodMCPReadResource, agentproto.MCPReadResourceParams{ClientID: id, URI: links[1]}, &logo); err != nil {
				t.Fatal(err)
			}
			if len(logo.Contents) != 1 || logo.Contents[0].Blob == nil || logo.Contents[0].Text != nil ||
				*logo.Contents[0].Blob != base64.StdEncoding.EncodeToString(fakemcp.LogoBytes) || logo.Contents[0].MIMEType != "image/png" {
				t.Errorf("logo = %+v", logo.Contents)
			}

			// Over its limit, a read is refused naming the URI and the limit.
			err = f.mcpRequest(agentproto.MethodMCPReadResource, agentproto.MCPReadResourceParams{ClientID: id, URI: fakemcp.ReadmeURI, MaxBytes: 5}, &agentproto.MCPReadResourceResult{})
			code, details := errCode(t, err)
			if code != agentproto.CodeMCPResourceTooLarge || details["uri"] != fakemcp.ReadmeURI || details["limit"] != float64(5) || details["size"] != float64(len(fakemcp.ReadmeText)) {
				t.Errorf("over the limit: code %s, details %v", code, details)
			}
			if !strings.Contains(err.Error(), `resource "fake://readme": 29 bytes, over the limit of 5`) {
				t.Errorf("over the limit: %v", err)
			}
			// One far over it is not read to its end: the same error, without
			// a size, and the client goes on.
			err = f.mcpRequest(agentproto.MethodMCPReadResource, agentproto.MCPReadResourceParams{ClientID: id, URI: "fake://sized/200000", MaxBytes: 1000}, &agentproto.MCPReadResourceResult{})
			code, details = errCode(t, err)
			if _, measured := details["size"]; code != agentproto.CodeMCPResourceTooLarge || details["limit"] != float64(1000) || measured || !strings.Contains(err.Error(), "not read further") {
				t.Errorf("far over the limit: code %s, details %v (%v)", code, details, err)
			}
			if err := f.mcpRequest(agentproto.MethodMCPReadResource, agentproto.MCPReadResourceParams{ClientID: id, URI: "fake://sized/1000", MaxBytes: 1000}, &agentproto.MCPReadResourceResult{}); err != nil {
				t.Errorf("a read that fits, after: %v", err)
			}
			err = f.mcpRequest(agentproto.MethodMCPReadResource, agentproto.MCPReadResourceParams{ClientID: id, URI: fakemcp.ReadmeURI, MaxBytes: agentproto.MaxResourceLimit + 1}, &agentproto.MCPReadResourceResult{})
			if code, _ := errCode(t, err); code != agentproto.CodeProtocol {
				t.Errorf("maxBytes over the ceiling: code %s (%v)", code, err)
			}

			// What the server does not know is its protocol error.
			err = f.mcpRequest(agentproto.MethodMCPReadResource, agentproto.MCPReadResourceParams{ClientID: id, URI: "fake://nothing"}, &agentproto.MCPReadResourceResult{})
			if code, details := errCode(t, err); code != agentproto.CodeMCPProtocol || details["uri"] != "fake://nothing" || details["server"] != server {
				t.Errorf("unknown resource: code %s, details %v", code, details)
			}
			err = f.mcpRequest(agentproto.MethodMCPGetPrompt, agentproto.MCPGetPromptParams{ClientID: id, Name: "nope"}, &agentproto.MCPGetPromptResult{})
			if code, details := errCode(t, err); code != agentproto.CodeMCPProtocol || details["prompt"] != "nope" {
				t.Errorf("unknown prompt: code %s, details %v", code, details)
			}
		})
	}
	// A closed client answers nothing more.
	if err := f.mcpRequest(agentproto.MethodMCPClose, agentproto.MCPClientRef{ClientID: "c-modern"}, &struct{}{}); err != nil {
		t.Fatal(err)
	}
	err := f.mcpRequest(agentproto.MethodMCPResources, agentproto.MCPClientRef{ClientID: "c-modern"}, &agentproto.MCPResourcesResult{})
	if code, _ := errCode(t, err); code != agentproto.CodeMCPConnection {
		t.Errorf("after close: code %s (%v)", code, err)
	}
}
