package command

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/boundedread"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/stratos-models/internal/lookup"
)

// maxHarnessRules bounds the rules read on stdin: the built-in harnesses'
// rules are about 3 KB.
const maxHarnessRules = 1 << 20

// withHarnessRules replaces d's harnesses with the rules on stdin when
// --harness-rules - asks for it: the agent host sends the harnesses it has
// registered, so a harness registered anywhere reaches selection
// (docs/design/harness-registration.md).
func withHarnessRules(ctx context.Context, cmd *cli.Command, d *lookup.Data) (*lookup.Data, error) {
	switch v := cmd.String("harness-rules"); v {
	case "":
		return d, nil
	case "-":
	default:
		return nil, clierr.Usage(modelsapi.CodeHarnessRulesInvalid, "--harness-rules %q: only - (stdin) is accepted", v)
	}
	raw, err := boundedread.Reader(ctx, cmd.Root().Reader, maxHarnessRules)
	if err != nil {
		return nil, clierr.Usage(modelsapi.CodeHarnessRulesInvalid, "read the harness rules on stdin: %v", err).Wrap(err)
	}
	var in modelsapi.HarnessRulesInput
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return nil, clierr.Usage(modelsapi.CodeHarnessRulesInvalid, "decode the harness rules on stdin: %v", err).Wrap(err)
	}
	m, err := d.Mapping.WithHarnesses(in.Harnesses)
	if err != nil {
		return nil, clierr.Usage(modelsapi.CodeHarnessRulesInvalid, "harness rules on stdin: %v", err).Wrap(err)
	}
	return &lookup.Data{Catalog: d.Catalog, Mapping: m}, nil
}
