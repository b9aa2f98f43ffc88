package command

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/buildapi"
	"github.com/stratoscli/stratos/stratos-build/pipeline"
)

func buildCommand() *cli.Command {
	return &cli.Command{
		Name:      "build",
		Usage:     "build a workflow and what it requires, or the whole project root",
		UsageText: "stratos build [<workflow>|--name <workflow>] [--json]",
		Description: cliapp.Lines(
			"With a workflow (name or path), builds it and the child workflows it imports, children",
			"first; unrelated workflows are not touched. Without one, builds every workflow of the",
			"project root, continuing after failures. A fresh build is reused without running npm,",
			"node or tsc. Every workflow prepared, fresh or not, has the Ollama models its",
			"workflow.yaml agents declare (provider: ollama) rechecked against $OLLAMA_HOST first:",
			"installed, local, with the completion and tools capabilities. Exit 1 if any build failed.",
		),
		Flags:  []cli.Flag{cliapp.JSONFlag(), nameFlag()},
		Action: runBuild,
	}
}

// buildOutput is the JSON contract of `stratos build --json`.
type buildOutput struct {
	Results  []*pipeline.Result `json:"results"`
	Warnings []string           `json:"warnings"`
}

func runBuild(ctx context.Context, cmd *cli.Command) error {
	target, err := targetArg(cmd)
	if err != nil {
		return err
	}
	s, err := session(cmd)
	if err != nil {
		return err
	}
	s.Explicit = true
	s.CheckModels = true
	var out *pipeline.Outcome
	if target != "" {
		out, err = s.PrepareTarget(ctx, target)
	} else {
		out, err = s.PrepareProject(ctx)
	}
	if err != nil {
		return err
	}
	res := buildOutput{Results: out.Results, Warnings: nonNil(out.Warnings)}
	if res.Results == nil {
		res.Results = []*pipeline.Result{}
	}
	if cmd.Bool("json") {
		if err := clierr.PrintJSON(cmd.Root().Writer, res); err != nil {
			return err
		}
	} else {
		printResults(cmd.Root().Writer, res.Results)
	}
	if out.Failed() {
		if cmd.Bool("json") {
			return cliapp.Silent(clierr.ExitFailed)
		}
		return clierr.New(buildapi.CodeBuildFailed, "some builds failed")
	}
	return nil
}

func printResults(w io.Writer, results []*pipeline.Result) {
	if len(results) == 0 {
		fmt.Fprintln(w, "no workflows to build")
	}
	for _, r := range results {
		line := fmt.Sprintf("%-10s %s", r.Status, r.Name)
		if r.Reason != "" {
			line += " (" + r.Reason + ")"
		}
		fmt.Fprintln(w, line)
		for _, d := range r.Diagnostics {
			fmt.Fprintln(w, "  "+strings.ReplaceAll(d.Message, "\n", "\n  "))
		}
	}
}
