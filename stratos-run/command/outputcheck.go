package command

import (
	"encoding/json"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/shared/jsonvalidate"
)

// checkOutput validates the output the runtime reported for a succeeded run
// against the output schema the workflow's build recorded. The runtime has
// validated it with Zod already; this check does not trust the runtime
// process, which runs workflow code, to have done so. Refinements and
// transforms JSON Schema cannot express remain the runtime's to check.
func checkOutput(wfDir, workflow string, output json.RawMessage) *clierr.Error {
	rec, err := freshness.ReadRecord(wfDir)
	if err != nil {
		return clierr.New(runapi.CodeBuildRecordUnreadable, "check the output of workflow %s: %v", workflow, err).Wrap(err)
	}
	if rec == nil || len(rec.OutputSchema) == 0 {
		return clierr.New(runapi.CodeOutputSchemaMissing, "check the output of workflow %s: its build record in %s has no output schema; run `stratos build` again", workflow, wfDir)
	}
	schema, err := jsonvalidate.Compile(rec.OutputSchema)
	if err != nil {
		return clierr.New(runapi.CodeOutputSchemaInvalid, "check the output of workflow %s: the output schema in its build record does not compile: %v", workflow, err).Wrap(err)
	}
	issues := schema.Validate(output)
	if issues == nil {
		return nil
	}
	return clierr.New(runapi.CodeOutputValidation, "workflow %q returned output that does not match its output schema: %s", workflow, jsonvalidate.Text(issues)).
		WithDetails(map[string]any{"workflow": workflow, "issues": issues})
}
