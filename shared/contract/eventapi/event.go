// Package eventapi is the vocabulary of a run's event stream: the one
// typed definition of every line of a run record's events.jsonl. Its
// writers (the harness adapters and the agent host in stratos-agent, the
// workflow runtime in the SDK, stratos-run) and its readers (runs show and
// logs, usage roll-ups, budgets, tracing, serve's API and page, mcp
// serve's progress, stratos test's counts) all go through these types;
// the SDK's and the page's TypeScript view and docs/events.schema.json are
// generated from them.
//
// A line is an Event: an envelope (kind, time, who) around the kind's own
// Details, one Go type per kind. Every line written carries the vocabulary
// version V; lines written before the version existed (version 0) are
// mapped to the current shapes when read (v0.go), so old records read as
// new ones do.
package eventapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Version is the vocabulary version written on every line. It changes
// when a kind's meaning or a field's spelling changes, never for an added
// kind or an added optional field.
const Version = 1

// Event is one line of events.jsonl.
type Event struct {
	// V is the vocabulary version the line was written in; 0 on lines
	// written before versions existed (they are mapped on read).
	V    int    `json:"v"`
	Type string `json:"type"`
	// Timestamp is RFC 3339 with nanoseconds, UTC.
	Timestamp string `json:"timestamp"`
	// Sequence is the agent host's order of the events it wrote (0 on the
	// runtime's lines, which have no sequence).
	Sequence int64 `json:"sequence,omitempty"`
	// ExecutionID is the workflow invocation the event belongs to: the
	// run's own for the top-level workflow, a child's for a child's.
	ExecutionID string `json:"executionId"`
	// Workflow is the invocation's workflow name, on the runtime's lines.
	Workflow string `json:"workflow,omitempty"`
	// AgentID and Label name the agent of an agent's events.
	AgentID string `json:"agentId,omitempty"`
	Label   string `json:"label,omitempty"`
	IDs     IDs    `json:"ids,omitzero"`
	// Reconstructed marks an event Stratos wrote on the harness's behalf
	// after the fact (background work still running when its agent
	// closed), not one the harness reported.
	Reconstructed bool `json:"reconstructed,omitempty"`
	// Worker names the stratos worker that ran the agent, on the events of
	// agents a run on the Temporal engine ran on another machine.
	Worker string `json:"worker,omitempty"`
	// Phase is the phase of workflow code (phase()) the event happened in,
	// as a path of nested phases ("review/fix"): on an agent's events, the
	// phase its execute was started in; on a child's start and end, the
	// phase of its parent that executed it. Absent outside any phase.
	Phase string `json:"phase,omitempty"`
	// Details is the kind's own fields: one of the types Kinds lists, or
	// *Unknown for a kind this version does not know.
	Details Details `json:"details,omitempty"`
}

// IDs correlate an event with the operations it belongs to.
type IDs struct {
	// InvocationID is the agent execute the event belongs to: for
	// background work, the execute that started it, even when the work
	// reports after that execute ended.
	InvocationID     string `json:"invocationId,omitempty"`
	ToolCallID       string `json:"toolCallId,omitempty"`
	ParentToolCallID string `json:"parentToolCallId,omitempty"`
	MessageID        string `json:"messageId,omitempty"`
	TurnID           string `json:"turnId,omitempty"`
	PromptID         string `json:"promptId,omitempty"`
	TaskID           string `json:"taskId,omitempty"`
	// NativeSessionID is the harness's own session (Claude Code's session,
	// Codex's thread).
	NativeSessionID string `json:"nativeSessionId,omitempty"`
	MCPClientID     string `json:"mcpClientId,omitempty"`
	// DecisionID is the decision the event belongs to
	// ("<executionId>/decision-<n>").
	DecisionID    string `json:"decisionId,omitempty"`
	ProgressToken string `json:"progressToken,omitempty"`
}

// Details are the fields of one event kind.
type Details interface {
	// EventType is the event type the details belong to.
	EventType() string
}

// Unknown holds the details of a kind this version does not know, as
// written: readers skip it, strict checks refuse it.
type Unknown struct {
	Type string          `json:"-"`
	Raw  json.RawMessage `json:"-"`
}

// EventType is the unknown event's type.
func (u *Unknown) EventType() string { return u.Type }

// MarshalJSON writes the details as they were read.
func (u *Unknown) MarshalJSON() ([]byte, error) {
	if len(u.Raw) == 0 {
		return []byte("{}"), nil
	}
	return u.Raw, nil
}

// New returns an Event of d's kind with the current version: writers
// fill in the envelope's other fields.
func New(d Details) Event {
	return Event{V: Version, Type: d.EventType(), Details: d}
}

// envelope is Event with its details undecoded.
type envelope struct {
	V             int             `json:"v"`
	Type          string          `json:"type"`
	Timestamp     string          `json:"timestamp"`
	Sequence      int64           `json:"sequence"`
	ExecutionID   string          `json:"executionId"`
	Workflow      string          `json:"workflow"`
	AgentID       string          `json:"agentId"`
	Label         string          `json:"label"`
	IDs           json.RawMessage `json:"ids"`
	Reconstructed bool            `json:"reconstructed"`
	Worker        string          `json:"worker"`
	Phase         string          `json:"phase"`
	Details       json.RawMessage `json:"details"`
}

// UnmarshalJSON reads a line of any version: details of a known kind into
// its type, of an unknown kind into *Unknown; a version 0 line is mapped
// to the current shapes first.
func (e *Event) UnmarshalJSON(b []byte) error {
	var env envelope
	if err := json.Unmarshal(b, &env); err != nil {
		return err
	}
	if env.Type == "" {
		return fmt.Errorf("event has no type")
	}
	ids, err := decodeIDs(env.IDs)
	if err != nil {
		return fmt.Errorf("event %s: ids: %w", env.Type, err)
	}
	raw := env.Details
	if env.V == 0 {
		raw = mapV0(env.Type, raw)
	}
	d, err := decodeDetails(env.Type, raw, false)
	if err != nil {
		return fmt.Errorf("event %s: details: %w", env.Type, err)
	}
	*e = Event{V: env.V, Type: env.Type, Timestamp: env.Timestamp, Sequence: env.Sequence,
		ExecutionID: env.ExecutionID, Workflow: env.Workflow, AgentID: env.AgentID, Label: env.Label,
		IDs: ids, Reconstructed: env.Reconstructed, Worker: env.Worker, Phase: env.Phase, Details: d}
	return nil
}

// decodeIDs reads ids, whose values version 0 wrote as any JSON (an MCP
// progress token may be a number).
func decodeIDs(raw json.RawMessage) (IDs, error) {
	var ids IDs
	if len(raw) == 0 || string(raw) == "null" {
		return ids, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return ids, err
	}
	for k, v := range m {
		var s string
		if json.Unmarshal(v, &s) != nil {
			s = string(bytes.TrimSpace(v))
		}
		m[k], _ = json.Marshal(s)
	}
	b, _ := json.Marshal(m)
	err := json.Unmarshal(b, &ids)
	return ids, err
}

// decodeDetails decodes raw into the type of kind typ; strict refuses
// unknown kinds and fields.
func decodeDetails(typ string, raw json.RawMessage, strict bool) (Details, error) {
	d := newDetails(typ)
	if d == nil {
		if strict {
			return nil, fmt.Errorf("unknown event type %q", typ)
		}
		return &Unknown{Type: typ, Raw: raw}, nil
	}
	if len(raw) == 0 || string(raw) == "null" {
		return d, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if strict {
		dec.DisallowUnknownFields()
	}
	err := dec.Decode(d)
	var mistyped *json.UnmarshalTypeError
	if !strict && errors.As(err, &mistyped) && bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) {
		// One field of the wrong type (a newer writer's number that
		// became fractional, say) must not hide the rest of the line from
		// roll-ups and budgets: the decoder filled every other field.
		// Details that are not an object at all are not the kind's.
		return d, nil
	}
	if err != nil {
		return nil, err
	}
	return d, nil
}

// Decode reads one line.
func Decode(line []byte) (Event, error) {
	var e Event
	err := json.Unmarshal(line, &e)
	return e, err
}

// Check reads one line as the conformance suite does: it must be of the
// current version, of a known kind, with no field the vocabulary does not
// define, in the envelope or the details.
func Check(line []byte) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	var env envelope
	if err := dec.Decode(&env); err != nil {
		return err
	}
	if env.V != Version {
		return fmt.Errorf("event %s: version %d, want %d", env.Type, env.V, Version)
	}
	if len(env.IDs) > 0 {
		ids := json.NewDecoder(bytes.NewReader(env.IDs))
		ids.DisallowUnknownFields()
		var v IDs
		if err := ids.Decode(&v); err != nil {
			return fmt.Errorf("event %s: ids: %w", env.Type, err)
		}
	}
	if _, err := decodeDetails(env.Type, env.Details, true); err != nil {
		return fmt.Errorf("event %s: details: %w", env.Type, err)
	}
	return nil
}
