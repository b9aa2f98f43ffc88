package command

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/shared/jsonvalidate/remote"
	"github.com/stratoscli/stratos/shared/jsonvalidate/verdict"
)

func writeRecord(t *testing.T, schema string) string {
	t.Helper()
	dir := t.TempDir()
	rec := &freshness.Record{FormatVersion: freshness.RecordFormat, Name: "w", Entry: "dist/w/workflow.js", OutputSchema: json.RawMessage(schema), BuiltAt: time.Now()}
	if err := freshness.WriteRecord(dir, rec); err != nil {
		t.Fatal(err)
	}
	return dir
}

const outputSchema = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"ok":{"type":"string"},"n":{"type":"number"}},"required":["ok","n"],"additionalProperties":false}`

func TestCheckOutputAcceptsAMatch(t *testing.T) {
	if err := checkOutput(writeRecord(t, outputSchema), "w", json.RawMessage(`{"ok":"yes","n":1}`)); err != nil {
		t.Fatalf("checkOutput = %v, want nil", err)
	}
}

// TestCheckOutputRejectsAMismatch: an output the runtime reported as a
// success but that does not match the recorded schema fails the run.
func TestCheckOutputRejectsAMismatch(t *testing.T) {
	err := checkOutput(writeRecord(t, outputSchema), "w", json.RawMessage(`{"ok":"forged"}`))
	if err == nil || err.Code != "output_validation" || err.Exit != 1 {
		t.Fatalf("checkOutput = %+v, want output_validation exiting 1", err)
	}
	issues, _ := err.Details["issues"].([]verdict.Issue)
	if len(issues) != 1 || issues[0].Path != "n" {
		t.Errorf("issues = %+v, want the missing n", issues)
	}
}

// TestCheckOutputNeedsTheSchema: without a recorded schema the output is not
// trusted.
func TestCheckOutputNeedsTheSchema(t *testing.T) {
	err := checkOutput(writeRecord(t, ""), "w", json.RawMessage(`{}`))
	if err == nil || err.Code != "output_schema_missing" {
		t.Fatalf("checkOutput = %+v, want output_schema_missing", err)
	}
	if err := checkOutput(t.TempDir(), "w", json.RawMessage(`{}`)); err == nil || err.Code != "output_schema_missing" {
		t.Fatalf("checkOutput without a record = %+v, want output_schema_missing", err)
	}
}

// TestALaunchedValidatorGoesToOneCheck: the process launched as the run
// command began serves the first check that takes it and is left to that
// check to close; a second take starts a process of its own.
func TestALaunchedValidatorGoesToOneCheck(t *testing.T) {
	l := launchValidator()
	first, err := l.take()
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	second, err := l.take()
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if first == second {
		t.Fatal("a second take got the launched process again")
	}
	l.close() // taken: not the launch's to close
	for _, v := range []*remote.Validator{first, second} {
		issues, err := v.Validate(json.RawMessage(outputSchema), json.RawMessage(`{"ok":"yes"}`))
		if err != nil || len(issues) != 1 {
			t.Errorf("Validate = %v, %v; want the missing n", issues, err)
		}
	}
}

// TestAnUntakenValidatorIsClosed: a run that ends before its output check
// (a failed build, say) leaves no validator process behind.
func TestAnUntakenValidatorIsClosed(t *testing.T) {
	l := launchValidator()
	l.close()
	if _, err := l.v.Validate(json.RawMessage(outputSchema), json.RawMessage(`{}`)); err == nil {
		t.Fatal("the launched validator still answers after close")
	}
	l.close() // closing again does nothing
}
