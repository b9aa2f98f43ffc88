package command

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/sdk"
	"github.com/stratoscli/stratos/stratos-build/pipeline"
)

func describeCommand() *cli.Command {
	return &cli.Command{
		Name:      "describe",
		Usage:     "print a workflow's manual and its input/output JSON Schemas",
		UsageText: "stratos describe <workflow> [--json]",
		Description: cliapp.Lines(
			"Builds the workflow first when it is not fresh (progress on stderr) and reports a",
			"build failure instead of a description. Loading the definition evaluates the",
			"workflow's module but never calls run.",
		),
		Flags:  []cli.Flag{cliapp.JSONFlag(), nameFlag()},
		Action: func(ctx context.Context, cmd *cli.Command) error { return runContract(ctx, cmd, true) },
	}
}

func schemaCommand() *cli.Command {
	return &cli.Command{
		Name:        "schema",
		Usage:       "print a workflow's input/output JSON Schemas",
		UsageText:   "stratos schema <workflow> [--json]",
		Description: "The same preparation as describe, without the descriptions.",
		Flags:       []cli.Flag{cliapp.JSONFlag(), nameFlag()},
		Action:      func(ctx context.Context, cmd *cli.Command) error { return runContract(ctx, cmd, false) },
	}
}

// describeOutput is the JSON contract of describe (schema omits the
// descriptions).
type describeOutput struct {
	Name             string          `json:"name"`
	ShortDescription string          `json:"shortDescription,omitempty"`
	LongDescription  string          `json:"longDescription,omitempty"`
	Input            json.RawMessage `json:"input"`
	Output           json.RawMessage `json:"output"`
}

func runContract(ctx context.Context, cmd *cli.Command, describe bool) error {
	out, err := prepareRequired(ctx, cmd, true)
	if err != nil {
		return err
	}
	def, err := definition(ctx, out)
	if err != nil {
		return err
	}
	m := out.Target.Workflow().Manifest
	res := describeOutput{Name: m.Name, Input: def.Input, Output: def.Output}
	if describe {
		res.ShortDescription, res.LongDescription = m.ShortDescription, m.LongDescription
	}
	if cmd.Bool("json") {
		return clierr.PrintJSON(cmd.Root().Writer, res)
	}
	w := cmd.Root().Writer
	if describe {
		// A block scalar's manual ends with a newline of its own.
		fmt.Fprintf(w, "%s — %s\n\n%s\n\n", m.Name, m.ShortDescription, strings.TrimRight(m.LongDescription, "\n"))
	}
	fmt.Fprintf(w, "input:\n%s\n\noutput:\n%s\n", indent(def.Input), indent(def.Output))
	return nil
}

// definition returns the target's loaded definition, loading it now when the
// preparation reused a fresh build.
func definition(ctx context.Context, out *pipeline.Outcome) (*sdk.Definition, error) {
	if out.Target.Definition != nil {
		return out.Target.Definition, nil
	}
	def, fail := out.Builder.LoadDefinition(ctx, out.Target.Workflow())
	if err := out.Builder.InterruptedError(ctx); err != nil {
		return nil, err
	}
	if fail != nil {
		out.Target = fail
		return nil, buildFailedError(out)
	}
	return def, nil
}

// indent pretty-prints a schema keeping its key order.
func indent(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}
