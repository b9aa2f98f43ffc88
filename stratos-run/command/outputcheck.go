package command

import (
	"encoding/json"
	"errors"

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
// package initialization before node starts. The check is started with the
// run: the record is read and the validator started and given the schema
// beside node, on another goroutine, and only the output is left to send
// once the runtime reports it.
type outputCheck struct {
	workflow string
	ready    chan struct{} // closed once prepare returned
	schema   json.RawMessage
	v        *remote.Validator
	err      *clierr.Error // why no output can be checked, reported by check
}

// startOutputCheck starts preparing the check of workflow's output; close
// ends it.
func startOutputCheck(wfDir, workflow string) *outputCheck {
	c := &outputCheck{workflow: workflow, ready: make(chan struct{})}
	go func() {
		defer close(c.ready)
		c.err = c.prepare(wfDir)
	}()
	return c
}

func (c *outputCheck) prepare(wfDir string) *clierr.Error {
	rec, err := freshness.ReadRecord(wfDir)
	if err != nil {
		return clierr.New(runapi.CodeBuildRecordUnreadable, "check the output of workflow %s: %v", c.workflow, err).Wrap(err)
	}
	if rec == nil || len(rec.OutputSchema) == 0 {
		return clierr.New(runapi.CodeOutputSchemaMissing, "check the output of workflow %s: its build record in %s has no output schema; run `stratos build` again", c.workflow, wfDir)
	}
	c.schema = rec.OutputSchema
	if c.v, err = remote.Start(); err != nil {
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

// close ends the validator process, once prepare is done.
func (c *outputCheck) close() {
	<-c.ready
	if c.v != nil {
		_ = c.v.Close()
	}
}

// checkOutput is the check of one output, prepared and made at once.
func checkOutput(wfDir, workflow string, output json.RawMessage) *clierr.Error {
	c := startOutputCheck(wfDir, workflow)
	defer c.close()
	return c.check(output)
}
