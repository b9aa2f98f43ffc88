package command

import (
	"context"
	"fmt"
	"os"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/discoverapi"
	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/shared/manifest"
)

func resolveCommand() *cli.Command {
	return &cli.Command{
		Name:      "resolve",
		Usage:     "resolve one workflow by name or path (for the other tools)",
		UsageText: "stratos-discover resolve <name|path> [--json] [--project|--user]",
		Description: cliapp.Lines(
			"A name is looked up in the project root first, then the user root. An argument",
			"containing '/' (or '.'/'..') is a path to a workflow directory, which must sit",
			"directly in a .stratos/workflows/ directory. Prints the directory, root, validated",
			"manifest, freshness key (with the parts it is computed from) and build status.",
			"Exit 2 with code workflow_not_found or workflow_invalid (with the problems).",
		),
		Flags:  rootFlags(),
		Action: runResolve,
	}
}

// Resolved is the JSON contract of `stratos-discover resolve --json`.
type Resolved struct {
	Name             string            `json:"name"`
	ShortDescription string            `json:"shortDescription"`
	Root             string            `json:"root"`
	RootDir          string            `json:"rootDir"`
	Dir              string            `json:"dir"`
	Status           string            `json:"status"`
	Reason           string            `json:"reason,omitempty"`
	Key              string            `json:"key"`
	CompiledEntry    string            `json:"compiledEntry"`
	Parts            freshness.Parts   `json:"parts"`
	Manifest         manifest.Manifest `json:"manifest"`
}

func runResolve(ctx context.Context, cmd *cli.Command) error {
	if err := cliapp.ExactArgs(cmd, 1, 1, "<name|path> [--json]"); err != nil {
		return err
	}
	sel, err := selection(cmd)
	if err != nil {
		return err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return clierr.New(discoverapi.CodeCwdUnreadable, "read working directory: %v", err)
	}
	w, root, err := discovery.Resolve(cwd, cmd.Args().First(), sel)
	if err != nil {
		return err
	}
	status, reason := root.ListedStatus(w)
	out := Resolved{
		Name: w.Manifest.Name, ShortDescription: w.Manifest.ShortDescription,
		Root: string(w.Root.Kind), RootDir: w.Root.Dir, Dir: w.Dir,
		Status: status, Reason: reason, Key: w.Key,
		CompiledEntry: freshness.CompiledEntry(w.Dir, w.Manifest.Entrypoint),
		Parts:         w.Parts, Manifest: w.Manifest,
	}
	if out.Parts.References == nil {
		out.Parts.References = []freshness.Reference{}
	}
	if cmd.Bool("json") {
		return clierr.PrintJSON(cmd.Root().Writer, out)
	}
	shown := out.Status
	if out.Reason != "" {
		shown += " (" + out.Reason + ")"
	}
	fmt.Fprintf(cmd.Root().Writer, "name:    %s\nroot:    %s (%s)\ndir:     %s\nstatus:  %s\nkey:     %s\n",
		out.Name, out.Root, out.RootDir, out.Dir, shown, out.Key)
	return nil
}
