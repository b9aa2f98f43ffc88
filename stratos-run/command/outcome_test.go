package command

import (
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/stratos-run/records"
	"github.com/stratoscli/stratos/stratos-run/supervise"
)

func TestInterpret(t *testing.T) {
	cases := []struct {
		name      string
		result    string
		cancelled bool
		killed    bool
		status    string
		exit      int // of the error; 0 means success
		code      string
	}{
		{"success", `{"status":"succeeded","output":{"a":1},"tree":{},"warnings":[]}`, false, false, records.StatusSucceeded, 0, ""},
		{"workflow error", `{"status":"failed","error":{"code":"workflow_failed","name":"Error","message":"boom","cause":[{"name":"Error","message":"boom"}]}}`,
			false, false, records.StatusFailed, clierr.ExitFailed, "workflow_failed"},
		{"input validation", `{"status":"failed","error":{"code":"input_validation","name":"InputValidationError","message":"bad","details":{"issues":[]},"cause":[]}}`,
			false, false, records.StatusFailed, clierr.ExitUsage, "input_validation"},
		{"a child's input validation is a workflow failure", `{"status":"failed","error":{"code":"child_failed","name":"ChildWorkflowError","message":"bad","cause":[{"name":"ChildWorkflowError","code":"child_failed","message":"bad"},{"name":"InputValidationError","code":"input_validation","message":"bad"}]}}`,
			false, false, records.StatusFailed, clierr.ExitFailed, "child_failed"},
		{"cancelled", `{"status":"cancelled","error":{"code":"cancelled","name":"CancelledError","message":"the run was interrupted","cause":[]}}`,
			true, false, records.StatusCancelled, clierr.ExitInterrupted, "interrupted"},
		{"cancelled but killed late", `{"status":"cancelled","error":{"code":"cancelled","name":"CancelledError","message":"x","cause":[]}}`,
			true, true, records.StatusInterrupted, clierr.ExitInterrupted, "interrupted"},
		{"killed without a result", ``, true, true, records.StatusInterrupted, clierr.ExitInterrupted, "interrupted"},
		{"crashed without a result", ``, false, false, records.StatusFailed, clierr.ExitFailed, "runner_failed"},
		{"garbage on fd 3", `not json`, false, false, records.StatusFailed, clierr.ExitFailed, "runner_failed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := &supervise.Outcome{Cancelled: c.cancelled, Killed: c.killed}
			if c.result != "" {
				out.Result = []byte(c.result)
			}
			o := interpret(out, "wf")
			if o.status != c.status {
				t.Errorf("status = %s, want %s", o.status, c.status)
			}
			if c.exit == 0 {
				if o.err != nil || string(o.output) != `{"a":1}` {
					t.Errorf("err = %v, output %s", o.err, o.output)
				}
				return
			}
			if o.err == nil || o.err.Exit != c.exit || o.err.Code != c.code {
				t.Fatalf("err = %+v, want exit %d code %s", o.err, c.exit, c.code)
			}
			if o.report == nil {
				t.Error("no error report for error.json")
			}
			if _, err := json.Marshal(o.err.Details); err != nil {
				t.Errorf("details are not JSON: %v", err)
			}
		})
	}
}

func TestMissingResultNamesTheExit(t *testing.T) {
	err := exec.Command("sh", "-c", "exit 7").Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Fatal(err)
	}
	o := interpret(&supervise.Outcome{Wait: err}, "hello")
	if !strings.Contains(o.err.Message, "exit status 7") || !strings.Contains(o.err.Message, "workflow hello") {
		t.Errorf("message = %s", o.err.Message)
	}
}

func TestTextMessageListsCauses(t *testing.T) {
	err := &clierr.Error{Message: "child workflow \"b\" failed: boom", Details: map[string]any{"cause": []errorLink{
		{Name: "ChildWorkflowError", Code: "child_failed", Message: "child workflow \"b\" failed: boom"},
		{Name: "Error", Message: "boom"},
	}}}
	want := "child workflow \"b\" failed: boom\n  caused by Error: boom"
	if got := textMessage(err); got != want {
		t.Errorf("textMessage = %q, want %q", got, want)
	}
}
