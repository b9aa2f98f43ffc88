package command

import (
	"context"
	"encoding/json"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/shared/jsonvalidate"
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
func validateInput(workflow string, schema, input json.RawMessage) error {
	compiled, err := jsonvalidate.Compile(schema)
	if err != nil {
		return clierr.New(errcode.CodeInternal, "the input schema of workflow %s does not compile: %v", workflow, err).Wrap(err)
	}
	issues := compiled.Validate(input)
	if issues == nil {
		return nil
	}
	return clierr.Usage(runapi.CodeInputValidation, "invalid input for workflow %q: %s", workflow, jsonvalidate.Text(issues)).
		WithDetails(map[string]any{"workflow": workflow, "issues": issues})
}
