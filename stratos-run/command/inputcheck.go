package command

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/shared/jsonvalidate/remote"
	"github.com/stratoscli/stratos/shared/jsonvalidate/verdict"
	"github.com/stratoscli/stratos/shared/sdk"
	"github.com/stratoscli/stratos/shared/toolchain"
)

// checkInput validates the input against the workflow's input schema
// before a run is detached. The runtime validates it too, but a detached
// run's verdict would come after this command printed the run's ID and
// exited 0; checked here, input the runtime would refuse comes back at
// once with the foreground run's code and exit (input_validation, 2). The
// schema is the definition's, loaded with node as `stratos schema` loads
// it (the module's top-level output goes to stderr); a build refuses
// schemas with parts JSON Schema cannot express, so it is the whole
// contract.
func (x *execution) checkInput(ctx context.Context) error {
	tc, err := toolchain.FindNode(ctx, toolchain.Options{Log: x.log})
	if err != nil {
		return err
	}
	def, err := sdk.LoadDefinition(ctx, tc, x.target.Root.Root.Dir, x.target.Entry(), x.stderr)
	if err != nil {
		return err
	}
	return validateInput(x.target.Name(), def.Input, x.input)
}

// validateInput is the runtime's input_validation error, or nil when
// input matches schema.
// It validates in the validator process (shared/jsonvalidate/remote), as
// the output check does: a detached run pays for that process's start, so
// that every run does not pay for the library's in stratos-run's.
func validateInput(workflow string, schema, input json.RawMessage) error {
	issues, err := remote.Validate(schema, input)
	var se *remote.SchemaError
	if errors.As(err, &se) {
		return clierr.New(errcode.CodeInternal, "the input schema of workflow %s does not compile: %v", workflow, err).Wrap(err)
	}
	if err != nil {
		return err
	}
	if issues == nil {
		return nil
	}
	return clierr.Usage(runapi.CodeInputValidation, "invalid input for workflow %q: %s", workflow, verdict.Text(issues)).
		WithDetails(map[string]any{"workflow": workflow, "issues": issues})
}
