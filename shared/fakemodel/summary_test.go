package fakemodel

import (
	"strings"
	"testing"
)

func TestWriteSummary(t *testing.T) {
	entries := []Entry{
		{Seq: 1, API: APIAnthropic, Method: "POST", Path: "/v1/messages", Turn: 1, Status: 200, Outcome: OutcomeCompleted,
			Facts: Facts{Model: "claude-fake-1", Stream: true, System: []string{"A", "B\nC"},
				SystemMessages: []string{"# Environment\ncwd"}, Tools: []string{"Bash", "Read"}, Prompt: "[bash] hi",
				ToolResults: []ToolResult{{ToolUseID: "toolu_1", Content: "hi"}, {ToolUseID: "toolu_2", IsError: true, Content: "no"}}}},
		{Seq: 2, API: APIAnthropic, Method: "POST", Path: "/v1/messages", Fallback: true, Status: 200, Outcome: OutcomeCompleted,
			Facts: Facts{Model: "m"}},
		{Seq: 3, Method: "HEAD", Path: "/api/hello", Status: 200, Outcome: OutcomeCompleted},
	}
	var b strings.Builder
	if err := WriteSummary(&b, entries); err != nil {
		t.Fatal(err)
	}
	want := `#1 POST /v1/messages api=anthropic model=claude-fake-1 stream=true turn=1 status=200 outcome=completed
  system: "A" "B\nC"
  system_message: "# Environment\ncwd"
  tools: Bash Read
  prompt: "[bash] hi"
  tool_result toolu_1: "hi"
  tool_result toolu_2 (error): "no"
#2 POST /v1/messages api=anthropic model=m stream=false turn=fallback status=200 outcome=completed
  system:
  tools:
  prompt: ""
#3 HEAD /api/hello turn=0 status=200 outcome=completed
`
	if b.String() != want {
		t.Errorf("summary =\n%s\nwant\n%s", b.String(), want)
	}
}
