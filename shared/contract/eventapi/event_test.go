package eventapi

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Records written before the vocabulary had versions (kept from real runs
// of that time) read as current events of known kinds, and written again
// they pass the conformance check.
func TestVersion0RecordsRead(t *testing.T) {
	files, _ := filepath.Glob("testdata/v0-*.jsonl")
	if len(files) == 0 {
		t.Fatal("no testdata/v0-*.jsonl")
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 1<<20)
		for n := 1; sc.Scan(); n++ {
			e, err := Decode(sc.Bytes())
			if err != nil {
				t.Errorf("%s:%d: %v", file, n, err)
				continue
			}
			if _, unknown := e.Details.(*Unknown); unknown {
				t.Errorf("%s:%d: kind %q is not in the vocabulary", file, n, e.Type)
				continue
			}
			e.V = Version
			again, err := json.Marshal(e)
			if err != nil {
				t.Fatalf("%s:%d: %v", file, n, err)
			}
			if err := Check(again); err != nil {
				t.Errorf("%s:%d: written again, %s fails the check: %v", file, n, again, err)
			}
		}
	}
}

func TestVersion0ErrorsBecomeObjects(t *testing.T) {
	e, err := Decode([]byte(`{"type":"agent.invocation.completed","timestamp":"t","executionId":"x","details":{"status":"failed","errorCode":"execution_failed","error":"boom"}}`))
	if err != nil {
		t.Fatal(err)
	}
	d := e.Details.(*AgentInvocationCompleted)
	if d.Error == nil || d.Error.Code != "execution_failed" || d.Error.Message != "boom" {
		t.Fatalf("error = %+v, want code execution_failed, message boom", d.Error)
	}
	e, err = Decode([]byte(`{"type":"usage","timestamp":"t","executionId":"x","details":{"inputTokens":3,"costUsd":0.5}}`))
	if err != nil {
		t.Fatal(err)
	}
	if u := e.Details.(*Usage); u.CostProvenance != CostReported || u.InputTokens != 3 {
		t.Fatalf("usage = %+v, want a reported cost and 3 input tokens", u)
	}
	// The test harness's failed tool call, as version 0 wrote it.
	e, err = Decode([]byte(`{"type":"tool.completed","timestamp":"t","executionId":"x","details":{"toolName":"shell","status":"failed","error":"exit 1","input":{}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if d := e.Details.(*ToolCompleted); !d.IsError || d.Error == nil || d.Error.Message != "exit 1" {
		t.Fatalf("tool.completed = %+v, want an error with its message", d)
	}
	e, err = Decode([]byte(`{"type":"mcp.progress","timestamp":"t","executionId":"x","ids":{"progressToken":7},"details":{"server":"s","progress":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	if e.IDs.ProgressToken != "7" {
		t.Fatalf("progressToken = %q, want 7", e.IDs.ProgressToken)
	}
}

// Current lines are not mapped: a version 1 line with a string error
// reads without the error rather than with a guessed one, and fails the
// check.
func TestVersion1IsNotMapped(t *testing.T) {
	line := []byte(`{"v":1,"type":"agent.closed","timestamp":"t","executionId":"x","details":{"status":"failed","error":"boom"}}`)
	e, err := Decode(line)
	if err != nil {
		t.Fatal(err)
	}
	if d := e.Details.(*AgentClosed); (d.Error != nil && *d.Error != (Error{})) || d.Status != StatusFailed {
		t.Fatalf("details = %+v, want status failed and no error", d)
	}
	if _, err := Decode([]byte(`{"v":1,"type":"agent.closed","timestamp":"t","executionId":"x","details":["closed"]}`)); err == nil {
		t.Fatal("details that are not an object read without error")
	}
	if Check(line) == nil {
		t.Fatal("Check accepted a string error in version 1")
	}
}

func TestEveryKindRoundTrips(t *testing.T) {
	for _, k := range Kinds() {
		e := New(k)
		e.Timestamp, e.ExecutionID = "2026-12-06T00:00:00Z", "run"
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatalf("%s: %v", k.EventType(), err)
		}
		if err := Check(b); err != nil {
			t.Errorf("%s: %s: %v", k.EventType(), b, err)
		}
		got, err := Decode(b)
		if err != nil {
			t.Fatalf("%s: %v", k.EventType(), err)
		}
		if got.Details.EventType() != k.EventType() {
			t.Errorf("%s read back as %s", k.EventType(), got.Details.EventType())
		}
	}
}

func TestCheckRefuses(t *testing.T) {
	for name, line := range map[string]string{
		"unknown kind":           `{"v":1,"type":"agent.teleported","timestamp":"t","executionId":"x"}`,
		"unknown details field":  `{"v":1,"type":"usage","timestamp":"t","executionId":"x","details":{"inputTokens":1,"outputTokens":1,"cacheReadInputTokens":0,"cacheCreationInputTokens":0,"reasoningOutputTokens":0,"totalTokens":2}}`,
		"unknown envelope field": `{"v":1,"type":"workflow.log","timestamp":"t","executionId":"x","extra":1,"details":{"message":"m"}}`,
		"unknown id":             `{"v":1,"type":"workflow.log","timestamp":"t","executionId":"x","ids":{"spanId":"s"},"details":{"message":"m"}}`,
		"version 0":              `{"type":"workflow.log","timestamp":"t","executionId":"x","details":{"message":"m"}}`,
		"wrong field type":       `{"v":1,"type":"workflow.log","timestamp":"t","executionId":"x","details":{"message":1}}`,
	} {
		if err := Check([]byte(line)); err == nil {
			t.Errorf("%s: %s passed the check", name, line)
		}
	}
}

// A reader keeps lines of kinds it does not know (a newer writer's) as
// Unknown, and writes them back unchanged.
func TestUnknownKindsAreKept(t *testing.T) {
	line := `{"v":1,"type":"agent.teleported","timestamp":"t","executionId":"x","details":{"to":"mars"}}`
	e, err := Decode([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	u, ok := e.Details.(*Unknown)
	if !ok || u.EventType() != "agent.teleported" {
		t.Fatalf("details = %#v, want Unknown agent.teleported", e.Details)
	}
	b, _ := json.Marshal(e)
	if !strings.Contains(string(b), `"details":{"to":"mars"}`) {
		t.Fatalf("written back as %s", b)
	}
}

// A field of the wrong type loses that field only: the usage of a line
// whose durationMs a harness wrote as a string still counts.
func TestAMistypedFieldLosesOnlyItself(t *testing.T) {
	line := `{"v":1,"type":"usage","timestamp":"t","executionId":"x","details":{"inputTokens":5,"outputTokens":7,"durationMs":"slow","costUsd":0.25,"costProvenance":"reported"}}`
	e, err := Decode([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	u := e.Details.(*Usage)
	if u.InputTokens != 5 || u.OutputTokens != 7 || u.CostUSD == nil || *u.CostUSD != 0.25 {
		t.Fatalf("usage = %+v, want 5 in, 7 out, $0.25", u)
	}
	if Check([]byte(line)) == nil {
		t.Fatal("Check accepted a string durationMs")
	}
}
