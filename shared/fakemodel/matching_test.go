package fakemodel

import (
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// replyText posts a request and returns the text of the (non-streaming) reply.
func replyText(t *testing.T, srv *Server, model, prompt string) string {
	t.Helper()
	resp, body := post(t, srv.URL+"/v1/messages", messagesBody(model, prompt, false))
	if resp.StatusCode != 200 {
		return "HTTP " + resp.Status
	}
	var m struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	return m.Content[0].Text
}

func TestTurnsPlayInOrderAndMatchModelAndMarker(t *testing.T) {
	srv := startFake(t, `{"turns":[
	  {"match":{"model":"claude-a"},"reply":[{"text":"a1"}]},
	  {"match":{"marker":"[B]"},"reply":[{"text":"b1"}]},
	  {"match":{"model":"claude-a"},"reply":[{"text":"a2"}]},
	  {"match":{"marker":"[B]","api":"anthropic"},"times":2,"reply":[{"text":"b-twice"}]},
	  {"reply":[{"text":"anyone"}]}
	]}`, Options{})
	steps := []struct{ model, prompt, want string }{
		{"claude-b", "[B] first", "b1"},
		{"claude-a", "hello", "a1"},
		{"claude-b", "[B] again", "b-twice"},
		{"claude-a", "hello", "a2"},
		{"claude-b", "[B] third", "b-twice"},
		{"claude-b", "[B] fourth", "anyone"},
		{"claude-a", "hello", "HTTP 400 Bad Request"},
	}
	for _, s := range steps {
		if got := replyText(t, srv, s.model, s.prompt); got != s.want {
			t.Errorf("%s %q: got %q, want %q", s.model, s.prompt, got, s.want)
		}
	}
	var turns []int
	for _, e := range srv.Log().Entries() {
		turns = append(turns, e.Turn)
	}
	if !reflect.DeepEqual(turns, []int{2, 1, 4, 3, 4, 5, 0}) {
		t.Errorf("logged turns = %v", turns)
	}
	if len(srv.UnusedTurns()) != 0 {
		t.Errorf("unused = %v", srv.UnusedTurns())
	}
}

func TestRepeatAndFallback(t *testing.T) {
	srv := startFake(t, `{"turns":[{"match":{"marker":"[r]"},"repeat":true,"reply":[{"text":"again"}]}],
	  "fallback":{"match":{"model":"ignored"},"reply":[{"text":"side-answer"}]}}`, Options{})
	for i := 0; i < 3; i++ {
		if got := replyText(t, srv, "m", "[r]"); got != "again" {
			t.Errorf("repeat %d: %q", i, got)
		}
	}
	if got := replyText(t, srv, "m", "title please"); got != "side-answer" {
		t.Errorf("fallback: %q", got)
	}
	if e := srv.Log().Entries()[3]; !e.Fallback || e.Turn != 0 {
		t.Errorf("fallback entry = %+v", e)
	}
	if len(srv.UnusedTurns()) != 0 {
		t.Errorf("a repeating turn was reported unused: %v", srv.UnusedTurns())
	}
}

// Several conversations at once: each gets its own turns, in its own order.
func TestConcurrentConversations(t *testing.T) {
	var turns []string
	for i := 0; i < 20; i++ {
		turns = append(turns, `{"match":{"marker":"[a]"},"reply":[{"text":"a`+itoa(i)+`"}]}`,
			`{"match":{"marker":"[b]"},"reply":[{"text":"b`+itoa(i)+`"}]}`)
	}
	srv := startFake(t, `{"turns":[`+strings.Join(turns, ",")+`]}`, Options{})
	var wg sync.WaitGroup
	for _, conv := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				if got, want := replyText(t, srv, "m", "["+conv+"] step"), conv+itoa(i); got != want {
					t.Errorf("conversation %s: got %q, want %q", conv, got, want)
				}
			}
		}()
	}
	wg.Wait()
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// The log holds what tests assert on: system prompt (top level and role
// "system" entries), offered tools, the newest prompt, tool results.
func TestRequestFactsAreLogged(t *testing.T) {
	srv := startFake(t, `{"turns":[{"match":{"marker":"[bash]"},"repeat":true,"reply":[{"text":"FINAL"}]}]}`, Options{})
	body := `{"model":"claude-fake-1","max_tokens":32000,"stream":true,
	  "system":[{"type":"text","text":"x-anthropic-billing-header: cc_version=2.1.332;"},
	            {"type":"text","text":"You are a Claude agent.","cache_control":{"type":"ephemeral"}},
	            {"type":"text","text":"Review for correctness."}],
	  "tools":[{"name":"Bash","input_schema":{}},{"name":"Read","input_schema":{}},{"name":"mcp__picked__echo","input_schema":{}}],
	  "messages":[
	    {"role":"user","content":[{"type":"text","text":"<system-reminder>context</system-reminder>"},{"type":"text","text":"[bash] run it"}]},
	    {"role":"system","content":"# Environment\ncwd: /work"},
	    {"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"echo hi"}},
	                                   {"type":"tool_use","id":"toolu_2","name":"Read","input":{"file_path":"/x"}}]},
	    {"role":"user","content":[
	      {"type":"tool_result","tool_use_id":"toolu_1","content":"hi"},
	      {"type":"tool_result","tool_use_id":"toolu_2","is_error":true,"content":[{"type":"text","text":"PreToolUse:Read hook error:"},{"type":"text","text":"denied"}]},
	      {"type":"text","text":"<system-reminder>later</system-reminder>"}]}
	  ]}`
	resp, _ := post(t, srv.URL+"/v1/messages?beta=true", body)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	e := finished(t, srv, 1)
	want := Facts{Model: "claude-fake-1", Stream: true,
		System:         []string{"x-anthropic-billing-header: cc_version=2.1.332;", "You are a Claude agent.", "Review for correctness."},
		SystemMessages: []string{"# Environment\ncwd: /work"},
		Tools:          []string{"Bash", "Read", "mcp__picked__echo"},
		Prompt:         "[bash] run it",
		ToolResults: []ToolResult{{ToolUseID: "toolu_1", Content: "hi"},
			{ToolUseID: "toolu_2", IsError: true, Content: "PreToolUse:Read hook error:\ndenied"}},
		Messages: 4}
	if !reflect.DeepEqual(e.Facts, want) {
		t.Errorf("facts =\n%+v\nwant\n%+v", e.Facts, want)
	}
	if e.Path != "/v1/messages" || e.Method != "POST" || e.API != APIAnthropic || e.Auth != "x-api-key" ||
		e.Headers["anthropic-version"] != "2023-06-01" {
		t.Errorf("entry = %+v", e)
	}
	if !json.Valid(e.Body) || !strings.Contains(string(e.Body), `"max_tokens":32000`) {
		t.Errorf("body = %s", e.Body)
	}
}

// A failed prompt stays in the history and is merged with the next one: only
// the newest text block is the prompt.
func TestPromptIsTheNewestTextBlock(t *testing.T) {
	srv := startFake(t, `{"turns":[{"match":{"marker":"[err]"},"error":{"kind":"overloaded"}},
	  {"match":{"marker":"[ok]"},"reply":[{"text":"fine"}]}]}`, Options{})
	post(t, srv.URL+"/v1/messages", messagesBody("m", "[err] first", false))
	body := `{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"[err] first"},{"type":"text","text":"[ok] second"}]}]}`
	resp, got := post(t, srv.URL+"/v1/messages", body)
	if resp.StatusCode != 200 || !strings.Contains(string(got), "fine") {
		t.Errorf("%d %s", resp.StatusCode, got)
	}
}
