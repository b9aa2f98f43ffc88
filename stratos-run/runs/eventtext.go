package runs

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
)

// maxValueText bounds each detail value in EventText, so that a long
// message or tool output stays on one readable line.
const maxValueText = 80

// EventText renders one events.jsonl line for people: time, type, the
// agent (its last ID segment), the phase its execute was started in
// (phase=<path>), the tool call's ID, then the details as key=value, as
// the vocabulary spells them (an error as error=<message>
// errorCode=<code>). Progress from workflow code reads as "<time> log
// <workflow>: <message>" and "<time> phase <workflow>: <path>" (the phase
// entered, nested in those around it), the message whole, a child's start
// as "<time> child <workflow> <execution ID> started by <parent workflow>
// <parent execution ID>" and its end as "<time> child <workflow>
// <execution ID> <status> after <duration>", with the error's code when it
// has one, each followed by " in phase <path>" when its parent started it
// in one; an agent's plan as "<time> plan <agent>: 1 of 3 done, now:
// <the step in progress>". Lines of every vocabulary version read alike; a line that is not
// an event is returned as is.
func EventText(line []byte) string {
	e, err := eventapi.Decode(line)
	if err != nil {
		return string(line)
	}
	at := clock(e.Timestamp)
	switch d := e.Details.(type) {
	case *eventapi.WorkflowLog:
		return fmt.Sprintf("%s log %s: %s", at, e.Workflow, d.Message)
	case *eventapi.WorkflowPhase:
		return fmt.Sprintf("%s phase %s: %s", at, e.Workflow, cmp.Or(e.Phase, d.Phase))
	case *eventapi.WorkflowChildStarted:
		return fmt.Sprintf("%s child %s %s started by %s %s%s", at, e.Workflow, e.ExecutionID, d.ParentWorkflow, d.ParentExecutionID, inPhase(e.Phase))
	case *eventapi.PlanUpdated:
		if s := planSummary(d); s != "" && e.AgentID != "" {
			return fmt.Sprintf("%s plan %s: %s", at, lastSegment(e.AgentID), s)
		}
	case *eventapi.WorkflowChildCompleted:
		return fmt.Sprintf("%s child %s %s %s after %s%s%s", at, e.Workflow, e.ExecutionID, d.Status,
			time.Duration(d.DurationMs)*time.Millisecond, errorCode(d.Error), inPhase(e.Phase))
	}
	parts := []string{at, e.Type}
	if e.AgentID != "" {
		parts = append(parts, lastSegment(e.AgentID))
	}
	if e.Phase != "" {
		parts = append(parts, "phase="+valueText(stringJSON(e.Phase)))
	}
	if id := e.IDs.ToolCallID; id != "" {
		parts = append(parts, "tool="+id)
	}
	return strings.Join(append(parts, detailsText(e.Details)...), " ")
}

// clock is the time of day of an RFC 3339 timestamp, in UTC like the record.
func clock(ts string) string {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return ts
	}
	return t.UTC().Format("15:04:05.000")
}

// inPhase is " in phase <path>", or "" outside any phase.
func inPhase(path string) string {
	if path == "" {
		return ""
	}
	return " in phase " + path
}

// stringJSON is a string as JSON (marshalling a string cannot fail).
func stringJSON(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

// errorCode is ": <code>" of an error with a code, or "".
func errorCode(e *eventapi.Error) string {
	if e == nil || e.Code == "" {
		return ""
	}
	return ": " + e.Code
}

func lastSegment(id string) string {
	return id[strings.LastIndexByte(id, '/')+1:]
}

// detailsText is the details as key=value, keys sorted, each field as the
// vocabulary writes it. An error reads as it did before errors were
// objects: error=<message> errorCode=<code>, each when it is set.
func detailsText(d eventapi.Details) []string {
	b, err := json.Marshal(d)
	if err != nil {
		return nil
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(b, &fields) != nil {
		return nil // an unknown kind's details that are not an object
	}
	splitError(fields)
	parts := make([]string, 0, len(fields))
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		parts = append(parts, k+"="+valueText(fields[k]))
	}
	return parts
}

// splitError replaces an {code, message} error by its message and its
// code as errorCode.
func splitError(fields map[string]json.RawMessage) {
	var e eventapi.Error
	if json.Unmarshal(fields["error"], &e) != nil {
		return // none, or an unknown kind's error that is not an object
	}
	delete(fields, "error")
	if e.Message != "" {
		fields["error"], _ = json.Marshal(e.Message)
	}
	if e.Code != "" {
		fields["errorCode"], _ = json.Marshal(e.Code)
	}
}

// valueText is a detail's value: a string as it is (quoted when empty or
// when it would not read as one word), anything else as JSON; cut at
// maxValueText.
func valueText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s == "" || strings.ContainsAny(s, " \t\n\"=") {
			s = strconv.Quote(s)
		}
	} else {
		s = string(raw)
	}
	if r := []rune(s); len(r) > maxValueText {
		s = string(r[:maxValueText-1]) + "…"
	}
	return s
}

// oneLine is s on one line (its runs of white space one space), cut to
// at most n runes (… marking the cut).
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		s = string(r[:n-1]) + "…"
	}
	return s
}
