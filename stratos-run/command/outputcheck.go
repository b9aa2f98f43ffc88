package command

import (
	"encoding/json"
	"errors"
	"sync/atomic"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/shared/jsonvalidate/remote"
	"github.com/stratoscli/stratos/shared/jsonvalidate/verdict"
)

// outputCheck validates the output the runtime reports for a succeeded run
// against the output schema the workflow's build recorded. The runtime has
// validated it with Zod already; this check does not trust the runtime
// process, which runs workflow code, to have done so. Refinements and
// transforms JSON Schema cannot express remain the runtime's to check.
//
// The validation runs in the validator process (shared/jsonvalidate/remote),
// so that stratos-run does not link the validating library and pay its
// package initialization before node starts. The process is started as the
// run command begins (validatorLaunch); the check is started with the run:
// the record is read and the validator given the schema beside node, on
// another goroutine, and only the output is left to send once the runtime
// reports it.
type outputCheck struct {
	workflow string
	ready    chan struct{} // closed once prepare returned
	schema   json.RawMessage
	v        *remote.Validator
	err      *clierr.Error // why no output can be checked, reported by check
}

// startOutputCheck starts preparing the check of workflow's output, with
// the validator process launch started (one of its own when launch is nil
// or was taken); close ends it.
func startOutputCheck(wfDir, workflow string, launch *validatorLaunch) *outputCheck {
	c := &outputCheck{workflow: workflow, ready: make(chan struct{})}
	go func() {
		defer close(c.ready)
		c.err = c.prepare(wfDir, launch)
	}()
	return c
}

func (c *outputCheck) prepare(wfDir string, launch *validatorLaunch) *clierr.Error {
	rec, err := freshness.ReadRecord(wfDir)
	if err != nil {
		return clierr.New(runapi.CodeBuildRecordUnreadable, "check the output of workflow %s: %v", c.workflow, err).Wrap(err)
	}
	if rec == nil || len(rec.OutputSchema) == 0 {
		return clierr.New(runapi.CodeOutputSchemaMissing, "check the output of workflow %s: its build record in %s has no output schema; run `stratos build` again", c.workflow, wfDir)
	}
	c.schema = rec.OutputSchema
	if c.v, err = launch.take(); err != nil {
		return clierr.As(err)
	}
	c.v.Prepare(c.schema)
	return nil
}

// check is output's verdict: nil when it matches the recorded schema.
func (c *outputCheck) check(output json.RawMessage) *clierr.Error {
	<-c.ready
	if c.err != nil {
		return c.err
	}
	issues, err := c.v.Validate(c.schema, output)
	var se *remote.SchemaError
	if errors.As(err, &se) {
		return clierr.New(runapi.CodeOutputSchemaInvalid, "check the output of workflow %s: the output schema in its build record does not compile: %v", c.workflow, err).Wrap(err)
	}
	if err != nil {
		return clierr.New(errcode.CodeInternal, "check the output of workflow %s: %v", c.workflow, err).Wrap(err)
	}
	if issues == nil {
		return nil
	}
	return clierr.New(runapi.CodeOutputValidation, "workflow %q returned output that does not match its output schema: %s", c.workflow, verdict.Text(issues)).
		WithDetails(map[string]any{"workflow": c.workflow, "issues": issues})
}

// close ends the validator process, once prepare is done; closing it
// again does nothing.
func (c *outputCheck) close() {
	<-c.ready
	if c.v != nil {
		_ = c.v.Close()
	}
}

// checkOutput is the check of one output, prepared and made at once.
func checkOutput(wfDir, workflow string, output json.RawMessage) *clierr.Error {
	c := startOutputCheck(wfDir, workflow, nil)
	defer c.close()
	return c.check(output)
}

// validatorLaunch is the validator process started as the run command
// begins, before stratos-run knows which workflow it runs or whether the
// output will be checked: until it starts node, stratos-run uses one core,
// and the process's start and the validating library's initialization
// (milliseconds of CPU) fit on the other, instead of competing with node's
// start for both. The first output check takes it; close ends it when none
// did (the run failed before its check, or was detached).
type validatorLaunch struct {
	ready chan struct{} // closed once the start returned
	v     *remote.Validator
	err   error
	taken atomic.Bool
}

func launchValidator() *validatorLaunch {
	l := &validatorLaunch{ready: make(chan struct{})}
	go func() {
		defer close(l.ready)
		l.v, l.err = remote.Start()
	}()
	return l
}

// take hands the launched process to its caller, who closes it; a nil
// launch, or one taken before, starts another process.
func (l *validatorLaunch) take() (*remote.Validator, error) {
	if l == nil || !l.taken.CompareAndSwap(false, true) {
		return remote.Start()
	}
	<-l.ready
	return l.v, l.err
}

// close ends the launched process unless it was taken.
func (l *validatorLaunch) close() {
	if l == nil || !l.taken.CompareAndSwap(false, true) {
		return
	}
	<-l.ready
	if l.v != nil {
		_ = l.v.Close()
	}
}
