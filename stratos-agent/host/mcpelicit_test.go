package host

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/fakemcp"
)

// elicitTestTimeout is the fixture's bound on the workflow's elicitation
// handler: only the test of a handler that never answers waits it out.
const elicitTestTimeout = 2 * time.Second

// connectEliciting connects a client whose workflow answers elicitation.
func (f *fixture) connectEliciting(id, server string) {
	f.t.Helper()
	err := f.client.Call(context.Background(), agentproto.MethodMCPConnect, agentproto.MCPConnectParams{
		ClientID: id, ExecutionID: "top", Workflow: agentproto.WorkflowRef{Name: "wf", Dir: f.dir}, Server: server, Elicitation: true}, &agentproto.MCPConnectResult{})
	if err != nil {
		f.t.Fatal(err)
	}
}

// release calls the test server's release tool, which answers with the
// elicitation's answer as JSON.
func (f *fixture) release(id string) (string, bool) {
	f.t.Helper()
	out, err := f.mcpCall(id, fakemcp.ReleaseTool, map[string]any{})
	if err != nil {
		f.t.Fatal(err)
	}
	var content []struct{ Text string }
	if err := json.Unmarshal(out.Content, &content); err != nil || len(content) != 1 {
		f.t.Fatalf("release content %s", out.Content)
	}
	return content[0].Text, out.IsError
}

func TestElicitationIsAnsweredByTheWorkflowsHandler(t *testing.T) {
	f := startMCP(t, twoServers, time.Minute)
	f.onHook(agentproto.MethodMCPElicit, func(raw json.RawMessage) (any, error) {
		var p agentproto.MCPElicitParams
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, err
		}
		if p.Message != "Which branch?" || !strings.Contains(string(p.RequestedSchema), `"branch"`) || (p.Server != "modern" && p.Server != "legacy") {
			t.Errorf("elicit params %+v", p)
		}
		return agentproto.MCPElicitResult{Action: agentproto.ElicitAccept, Content: json.RawMessage(`{"branch":"main-` + p.Server + `"}`)}, nil
	})
	for _, server := range []string{"modern", "legacy"} {
		f.connectEliciting("c-"+server, server)
		got, isErr := f.release("c-" + server)
		if want := `{"action":"accept","content":{"branch":"main-` + server + `"}}`; got != want || isErr {
			t.Errorf("%s: answer %s (isError %v), want %s", server, got, isErr, want)
		}
	}
}

// An accepted answer that does not fit the form never reaches the server:
// the call fails with an error naming the field.
func TestElicitationRejectsContentThatDoesNotFitTheForm(t *testing.T) {
	for name, content := range map[string]string{
		"wrong type":     `{"branch":42}`,
		"missing field":  `{"confirm":true}`,
		"not an object":  `["main"]`,
		"wrong type too": `{"branch":"main","confirm":"yes"}`,
	} {
		t.Run(name, func(t *testing.T) {
			f := startMCP(t, twoServers, time.Minute)
			f.onHook(agentproto.MethodMCPElicit, func(json.RawMessage) (any, error) {
				return agentproto.MCPElicitResult{Action: agentproto.ElicitAccept, Content: json.RawMessage(content)}, nil
			})
			field := "branch"
			if name == "wrong type too" {
				field = "confirm"
			} else if name == "not an object" {
				field = "object"
			}
			for _, server := range []string{"modern", "legacy"} {
				f.connectEliciting("c-"+server, server)
				_, err := f.mcpCall("c-"+server, fakemcp.ReleaseTool, map[string]any{})
				if code, _ := errCode(t, err); code != agentproto.CodeMCPProtocol || !strings.Contains(err.Error(), "does not fit the form") || !strings.Contains(err.Error(), field) {
					t.Errorf("%s: error %v (code %s), want an mcp_protocol error naming %q", server, err, code, field)
				}
			}
		})
	}
}

// A handler that fails, or does not answer in time, declines: the server
// is never left waiting.
func TestElicitationDeclinesWhenTheHandlerFailsOrDoesNotAnswer(t *testing.T) {
	// The handler that does not answer never does: an answer after the
	// test would be logged on a finished test.
	never := make(chan struct{})
	for name, handler := range map[string]func(json.RawMessage) (any, error){
		"fails":           func(json.RawMessage) (any, error) { return nil, errors.New("Error: no branch today") },
		"does not answer": func(json.RawMessage) (any, error) { <-never; return nil, nil },
		"declines": func(json.RawMessage) (any, error) {
			return agentproto.MCPElicitResult{Action: agentproto.ElicitDecline}, nil
		},
	} {
		t.Run(name, func(t *testing.T) {
			f := startMCP(t, twoServers, time.Minute)
			f.onHook(agentproto.MethodMCPElicit, handler)
			for _, server := range []string{"modern", "legacy"} {
				f.connectEliciting("c-"+server, server)
				if got, isErr := f.release("c-" + server); got != `{"action":"decline"}` || isErr {
					t.Errorf("%s: answer %s (isError %v), want a decline", server, got, isErr)
				}
			}
		})
	}
}

// Without a handler the declaration's policy answers (refuse, the
// default): the workflow is not asked.
func TestElicitationWithoutAHandlerFollowsTheDeclaration(t *testing.T) {
	f := startMCP(t, twoServers, time.Minute)
	if _, err := f.mcpConnect("c", "top", "modern"); err != nil {
		t.Fatal(err)
	}
	_, err := f.mcpCall("c", fakemcp.ReleaseTool, map[string]any{})
	if code, _ := errCode(t, err); code != agentproto.CodeMCPProtocol || !strings.Contains(err.Error(), "does not support elicitation") {
		t.Errorf("error %v (code %s), want the refusal", err, code)
	}
}
