package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/discoverapi"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/shared/manifest"
	"github.com/stratoscli/stratos/shared/roots"
)

func listCommand() *cli.Command {
	return &cli.Command{
		Name:      "list",
		Usage:     "list the workflows of the project and user roots",
		UsageText: "stratos list [--json] [--project|--user]",
		Description: cliapp.Lines(
			"Prints every valid workflow with its short description and build status, sorted by",
			"root (project first) then name. Invalid workflows never hide valid ones: they are",
			"reported as problems (on stderr, or in the JSON \"problems\" list) and the command",
			"still exits 0. It exits 1 only when a root exists but cannot be read.",
		),
		Flags:  rootFlags(),
		Action: runList,
	}
}

// listOutput is the JSON contract of `stratos list --json` (printed by
// writeListJSON exactly as encoding/json would print it).
type listOutput struct {
	Workflows []listedWorkflow   `json:"workflows"`
	Problems  []manifest.Problem `json:"problems"`
}

type listedWorkflow struct {
	Name             string `json:"name"`
	ShortDescription string `json:"shortDescription"`
	Root             string `json:"root"`
	Dir              string `json:"dir"`
	Status           string `json:"status"`
	Reason           string `json:"reason,omitempty"`
}

func runList(ctx context.Context, cmd *cli.Command) error {
	// list takes no workflow: `stratos list review` printed every workflow,
	// which reads as if review were among them.
	if err := cliapp.ExactArgs(cmd, 0, 0, "[--json] [--project|--user] (no arguments; stratos describe <workflow> shows one)"); err != nil {
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
	rs, err := roots.Resolve(cwd, sel)
	if err != nil {
		return clierr.New(discoverapi.CodeRootsUnresolved, "%v", err)
	}
	cat, err := discovery.List(rs)
	if err != nil {
		var ur *discovery.UnreadableRootError
		if errors.As(err, &ur) {
			return clierr.New(discoverapi.CodeRootUnreadable, "%v", err).WithDetails(map[string]any{"dir": ur.Dir})
		}
		return clierr.New(discoverapi.CodeReadFailed, "%v", err)
	}
	out := listOutput{Workflows: []listedWorkflow{}, Problems: cat.Problems()}
	if out.Problems == nil {
		out.Problems = []manifest.Problem{}
	}
	for _, w := range cat.Workflows() {
		out.Workflows = append(out.Workflows, listedWorkflow{
			Name: w.Manifest.Name, ShortDescription: w.Manifest.ShortDescription,
			Root: string(w.Root.Kind), Dir: w.Dir, Status: w.Status, Reason: w.Reason,
		})
	}
	if cmd.Bool("json") {
		return writeListJSON(cmd.Root().Writer, out)
	}
	printTable(cmd.Root().Writer, cmd.Root().ErrWriter, out)
	return nil
}

func printTable(stdout, stderr io.Writer, out listOutput) {
	if len(out.Workflows) == 0 {
		fmt.Fprintln(stderr, "no workflows found (project root .stratos/workflows/, user root ~/.stratos/workflows/)")
	} else {
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tROOT\tSTATUS\tDESCRIPTION")
		var stale []string
		for _, w := range out.Workflows {
			status := w.Status
			if w.Status != freshness.Built {
				status += " (" + w.Reason + ")"
				stale = append(stale, w.Name)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", w.Name, w.Root, status, w.ShortDescription)
		}
		tw.Flush()
		if len(stale) > 0 {
			fmt.Fprintf(stderr, "not built: %s; run 'stratos build <name>' (or 'stratos build' for the whole project)\n", strings.Join(stale, ", "))
		}
	}
	for _, p := range out.Problems {
		fmt.Fprintf(stderr, "problem: %s\n", p.Message)
	}
}

func selection(cmd *cli.Command) (roots.Selection, error) {
	switch {
	case cmd.Bool("project") && cmd.Bool("user"):
		return 0, clierr.Usage(errcode.CodeUsage, "--project and --user cannot be combined")
	case cmd.Bool("project"):
		return roots.OnlyProject, nil
	case cmd.Bool("user"):
		return roots.OnlyUser, nil
	}
	return roots.Both, nil
}
