package codex

import (
	"encoding/json"
	"net"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

func TestConversationKeepsMemoryRunsShellAndSendsInstructionsOnce(t *testing.T) {
	b := newBed(t, `{"turns":[
		{"match":{"marker":"[hello]"},"reply":[{"text":"hello back"}]},
		{"match":{"marker":"[run]"},"reply":[{"toolUse":{"name":"exec_command","input":{"cmd":"echo from-shell"}}}]},
		{"match":{"marker":"[run]"},"reply":[{"text":"FINAL: ran it"}]}]}`)
	a := b.open(nil, nil)
	res, err := a.Execute(b.Context(), "[hello] hi")
	if err != nil || res.Text != "hello back" {
		t.Fatalf("first execute = %+v, %v", res, err)
	}
	res, err = a.Execute(b.Context(), "[run] echo something")
	if err != nil || res.Text != "FINAL: ran it" {
		t.Fatalf("second execute = %+v, %v", res, err)
	}
	runs := b.RequestsWith("[run]")
	if len(runs) != 2 {
		t.Fatalf("requests for [run]: %d", len(runs))
	}
	last := runs[1]
	if len(last.ToolResults) != 1 || !strings.Contains(last.ToolResults[0].Content, "from-shell") {
		t.Errorf("tool results = %+v", last.ToolResults)
	}
	if !strings.Contains(string(last.Body), "hello back") {
		t.Error("the second prompt's request does not carry the first turn (no conversation memory)")
	}
	n := 0
	for _, s := range last.System {
		n += strings.Count(s, "You write code for Stratos tests.")
	}
	if n != 1 {
		t.Errorf("the system prompt appears %d times in the developer messages, want 1: %q", n, last.System)
	}
	if got := b.EventsOf("tool.completed"); len(got) != 1 || got[0].Details.(*eventapi.ToolCompleted).ToolName != "Bash" {
		t.Errorf("tool.completed events = %+v", got)
	}
	if got := b.EventsOf("usage"); len(got) != 2 {
		t.Errorf("usage events = %+v", got)
	}
}

func TestStructuredOutputIsTheFinalMessage(t *testing.T) {
	b := newBed(t, `{"turns":[{"match":{"marker":"[json]"},"reply":[{"structuredOutput":{"answer":"42"}}]}]}`)
	schema := json.RawMessage(`{"type":"object","properties":{"answer":{"type":"string"}},"required":["answer"],"additionalProperties":false}`)
	a := b.open(nil, func(s *adapter.Spec) { s.OutputSchema = schema })
	res, err := a.Execute(b.Context(), "[json] answer")
	if err != nil || string(res.Value) != `{"answer":"42"}` {
		t.Fatalf("execute = %+v, %v", res, err)
	}
	body := string(b.RequestsWith("[json]")[0].Body)
	if !strings.Contains(body, `"json_schema"`) || !strings.Contains(body, `"answer"`) {
		t.Errorf("the request does not carry the output schema: %s", body)
	}
}

// An agent's commands act with the user's rights, as on Claude Code (no
// Codex sandbox): they reach the network, and an agent in a worktree can
// write the repository's .git outside its working directory to commit.
func TestCommandsRunWithoutCodexSandbox(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	host, port, _ := strings.Cut(ln.Addr().String(), ":")
	b := newBed(t, `{"turns":[`+shellScript("[net]", "echo > /dev/tcp/"+host+"/"+port+" && touch net-ok.txt")+`]}`)
	a := b.open(nil, nil)
	if _, err := a.Execute(b.Context(), "[net] go"); err != nil {
		t.Fatal(err)
	}
	if !b.exists("net-ok.txt") {
		t.Error("the command could not open a connection (a Codex sandbox confined it)")
	}
}
