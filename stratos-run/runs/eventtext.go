package runs

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// maxValueText bounds each detail value in EventText, so that a long
// message or tool output stays on one readable line.
const maxValueText = 80

// Event types the SDK's runtime writes: progress from log() and phase(),
// and the start and end of each child invocation.
const (
	TypeLog            = "workflow.log"
	TypePhase          = "workflow.phase"
	TypeChildStarted   = "workflow.child.started"
	TypeChildCompleted = "workflow.child.completed"
)

// EventText renders one events.jsonl line for people: time, type, the
// agent (its last ID segment), the invocation's and tool call's IDs, then
// the details as key=value. Progress from workflow code reads as
// "<time> log <workflow>: <message>" and "<time> phase <workflow>: <name>",
// the message whole, a child's start as "<time> child <workflow>
// <execution ID> started by <parent workflow> <parent execution ID>" and
// its end as "<time> child <workflow> <execution ID> <status> after
// <duration>", with the error's code when it has one. A line that is not
// an event is returned as is.
func EventText(line []byte) string {
	var e struct {
		Type        string            `json:"type"`
		Timestamp   string            `json:"timestamp"`
		AgentID     string            `json:"agentId"`
		ExecutionID string            `json:"executionId"`
		Workflow    string            `json:"workflow"`
		IDs         map[string]string `json:"ids"`
		Details     map[string]any    `json:"details"`
	}
	if err := json.Unmarshal(line, &e); err != nil || e.Type == "" {
		return string(line)
	}
	switch e.Type {
	case TypeLog:
		return fmt.Sprintf("%s log %s: %v", clock(e.Timestamp), e.Workflow, e.Details["message"])
	case TypePhase:
		return fmt.Sprintf("%s phase %s: %v", clock(e.Timestamp), e.Workflow, e.Details["phase"])
	case TypeChildStarted:
		return fmt.Sprintf("%s child %s %s started by %v %v", clock(e.Timestamp), e.Workflow, e.ExecutionID, e.Details["parentWorkflow"], e.Details["parentExecutionId"])
	case TypeChildCompleted:
		return fmt.Sprintf("%s child %s %s %v after %s%s", clock(e.Timestamp), e.Workflow, e.ExecutionID, e.Details["status"], millis(e.Details["durationMs"]), errorCode(e.Details["error"]))
	}
	parts := []string{clock(e.Timestamp), e.Type}
	if e.AgentID != "" {
		parts = append(parts, lastSegment(e.AgentID))
	}
	if id := e.IDs["toolCallId"]; id != "" {
		parts = append(parts, "tool="+id)
	}
	keys := make([]string, 0, len(e.Details))
	for k := range e.Details {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		parts = append(parts, k+"="+valueText(e.Details[k]))
	}
	return strings.Join(parts, " ")
}

// clock is the time of day of an RFC 3339 timestamp, in UTC like the record.
func clock(ts string) string {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return ts
	}
	return t.UTC().Format("15:04:05.000")
}

// millis renders a duration in milliseconds (a JSON number) as Go does
// ("1.5s", "250ms").
func millis(v any) string {
	ms, ok := v.(float64)
	if !ok {
		return fmt.Sprint(v)
	}
	return (time.Duration(ms) * time.Millisecond).String()
}

// errorCode is ": <code>" of an {code, message} error, or "".
func errorCode(v any) string {
	if e, ok := v.(map[string]any); ok && e["code"] != nil {
		return fmt.Sprintf(": %v", e["code"])
	}
	return ""
}

func lastSegment(id string) string {
	return id[strings.LastIndexByte(id, '/')+1:]
}

func valueText(v any) string {
	var s string
	if str, ok := v.(string); ok {
		s = str
		if s == "" || strings.ContainsAny(s, " \t\n\"=") {
			s = strconv.Quote(s)
		}
	} else if b, err := json.Marshal(v); err == nil {
		s = string(b)
	} else {
		s = fmt.Sprint(v)
	}
	if r := []rune(s); len(r) > maxValueText {
		s = string(r[:maxValueText-1]) + "…"
	}
	return s
}
