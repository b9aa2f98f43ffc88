package fakemodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// WriteSummary prints entries for people and for line-based assertions
// (testscript `stdout`): one header line per request, then one line per
// fact, free text quoted so that each fact stays on one line.
//
//	#2 POST /v1/messages api=anthropic model=claude-fake-1 stream=true turn=2 status=200 outcome=completed
//	  system: "You are a Claude agent…" "Review the code."
//	  tools: Bash Read
//	  prompt: "[bash] say hi"
//	  tool_result toolu_fake_1_2: "hi"
func WriteSummary(w io.Writer, entries []Entry) error {
	var b strings.Builder
	for _, e := range entries {
		fmt.Fprintf(&b, "#%d %s %s", e.Seq, e.Method, e.Path)
		if e.API != "" {
			fmt.Fprintf(&b, " api=%s model=%s stream=%t", e.API, e.Model, e.Stream)
		}
		turn := fmt.Sprint(e.Turn)
		if e.Fallback {
			turn = "fallback"
		}
		fmt.Fprintf(&b, " turn=%s status=%d outcome=%s\n", turn, e.Status, e.Outcome)
		if e.API == "" || e.API == APIOllama { // no turn, no facts
			continue
		}
		fmt.Fprintf(&b, "  system:%s\n", quotedList(e.System))
		for _, m := range e.SystemMessages {
			fmt.Fprintf(&b, "  system_message: %q\n", m)
		}
		fmt.Fprintf(&b, "  tools:%s\n", plainList(e.Tools))
		fmt.Fprintf(&b, "  prompt: %q\n", e.Prompt)
		if len(e.Schema) > 0 {
			fmt.Fprintf(&b, "  schema: %s\n", compactJSON(e.Schema))
		}
		for _, r := range e.ToolResults {
			errMark := ""
			if r.IsError {
				errMark = " (error)"
			}
			fmt.Fprintf(&b, "  tool_result %s%s: %q\n", r.ToolUseID, errMark, r.Content)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func quotedList(xs []string) string {
	var b strings.Builder
	for _, x := range xs {
		fmt.Fprintf(&b, " %q", x)
	}
	return b.String()
}

func plainList(xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	return " " + strings.Join(xs, " ")
}

// compactJSON is raw without insignificant space (raw itself when it is
// not JSON).
func compactJSON(raw json.RawMessage) string {
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return string(raw)
	}
	return buf.String()
}
