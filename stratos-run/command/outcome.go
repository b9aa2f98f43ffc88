package command

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/contract/journalapi"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/stratos-run/records"
	"github.com/stratoscli/stratos/stratos-run/supervise"
)

// runnerResult is the document the SDK runner writes to fd 3.
type runnerResult struct {
	Status   string          `json:"status"` // succeeded | failed | cancelled
	Output   json.RawMessage `json:"output"`
	Error    *reportedError  `json:"error"`
	Tree     json.RawMessage `json:"tree"`
	Warnings []string        `json:"warnings"`
	// Resume is the runtime's report of a resumed run's replay.
	Resume *journalapi.Report `json:"resume"`
}

// reportedError is a workflow error as the runner reports it.
type reportedError struct {
	Code    string         `json:"code"`
	Name    string         `json:"name"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
	Cause   []errorLink    `json:"cause"`
	Stack   string         `json:"stack,omitempty"`
}

// errorLink is one error of a cause chain, outermost first.
type errorLink struct {
	Name    string `json:"name"`
	Code    string `json:"code,omitempty"`
	Message string `json:"message"`
}

// outcome is how a run ended, for the CLI and the run record.
type outcome struct {
	status   string
	output   json.RawMessage
	err      *clierr.Error // nil on success
	report   any           // error.json
	tree     json.RawMessage
	warnings []string
	resume   *journalapi.Report
}

func (o outcome) final(exit int) records.Final {
	return records.Final{Status: o.status, ExitCode: exit, EndedAt: time.Now(), Output: o.output, Error: o.report, Tree: o.tree, Warnings: o.warnings, Resume: o.resume}
}

// failure is the outcome of an error that happened outside the workflow (a
// build failure, a missing toolchain).
func failure(ce *clierr.Error, tree json.RawMessage) outcome {
	status := records.StatusFailed
	if ce.Exit == clierr.ExitInterrupted {
		status = records.StatusInterrupted
	}
	report := map[string]any{"code": ce.Code, "message": ce.Message}
	if len(ce.Details) > 0 {
		report["details"] = ce.Details
	}
	return outcome{status: status, err: ce, report: report, tree: tree}
}

// interpret maps what the runner reported (or failed to) to an outcome.
func interpret(out *supervise.Outcome, workflow string) outcome {
	var res runnerResult
	if out.Result == nil || json.Unmarshal(out.Result, &res) != nil || res.Status == "" {
		return missingResult(out, workflow)
	}
	o := outcome{tree: res.Tree, warnings: res.Warnings, resume: res.Resume}
	switch {
	case res.Status == "succeeded":
		o.status, o.output = records.StatusSucceeded, res.Output
		if len(o.output) == 0 {
			o.output = json.RawMessage("{}")
		}
		return o
	case res.Error == nil:
		res.Error = &reportedError{Code: runapi.CodeRunnerFailed, Message: fmt.Sprintf("the runtime reported status %q without an error", res.Status)}
	}
	o.report = res.Error
	exit := clierr.ExitFailed
	o.status = records.StatusFailed
	code := res.Error.Code
	switch {
	case res.Status == "cancelled":
		exit, o.status, code = clierr.ExitInterrupted, records.StatusCancelled, errcode.CodeInterrupted
		if out.Killed {
			o.status = records.StatusInterrupted
		}
	case code == runapi.CodeInputValidation:
		exit = clierr.ExitUsage
	}
	details := map[string]any{}
	for k, v := range res.Error.Details {
		details[k] = v
	}
	details["cause"] = res.Error.Cause
	o.err = &clierr.Error{Code: code, Message: res.Error.Message, Details: details, Exit: exit}
	return o
}

// missingResult is the outcome of a runner that ended without reporting.
func missingResult(out *supervise.Outcome, workflow string) outcome {
	if out.Cancelled {
		msg := "interrupted: the workflow was cancelled"
		if out.Killed {
			msg = "interrupted: the workflow did not finish cancelling in time, so its processes were killed"
		}
		ce := clierr.New(errcode.CodeInterrupted, "%s", msg)
		ce.Exit = clierr.ExitInterrupted
		return failure(ce, nil)
	}
	return failure(clierr.New(runapi.CodeRunnerFailed,
		"node stopped (%v) before the runtime reported how workflow %s ended; its output, if any, is above on stderr", exitText(out.Wait), workflow), nil)
}

func exitText(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// textMessage is the message with its cause chain, for people.
func textMessage(err *clierr.Error) string {
	var b strings.Builder
	b.WriteString(err.Message)
	links, _ := err.Details["cause"].([]errorLink)
	for i, l := range links {
		if i == 0 {
			continue // the error itself
		}
		fmt.Fprintf(&b, "\n  caused by %s", l.Name)
		if l.Code != "" {
			fmt.Fprintf(&b, " [%s]", l.Code)
		}
		fmt.Fprintf(&b, ": %s", l.Message)
	}
	return b.String()
}
