package command

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/stratos-models/internal/catalog"
)

func listCommand() *cli.Command {
	return &cli.Command{
		Name:      "list",
		Usage:     "list canonical models",
		UsageText: "stratos-models list [--creator <c>] [--provider <p>] [--json]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "creator", Usage: "only models of this creator (the part before '/')"},
			&cli.StringFlag{Name: "provider", Usage: "only models mapped on this provider, with their native ID there"},
			cliapp.JSONFlag(),
		},
		Action: runList,
	}
}

// listOutput is the JSON document of `list --json`.
type listOutput struct {
	CatalogCommit string      `json:"catalogCommit"`
	Creator       string      `json:"creator,omitempty"`
	Provider      string      `json:"provider,omitempty"`
	Models        []listEntry `json:"models"`
}

type listEntry struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Creator     string   `json:"creator"`
	ToolCall    bool     `json:"toolCall"`
	OutputsText bool     `json:"outputsText"`
	Providers   []string `json:"providers"`
	// With --provider: the native ID a lookup returns there, and its origin.
	NativeID string `json:"nativeId,omitempty"`
	Origin   string `json:"origin,omitempty"`
}

func runList(_ context.Context, cmd *cli.Command) error {
	if err := cliapp.ExactArgs(cmd, 0, 0, "[--creator <c>] [--provider <p>]"); err != nil {
		return err
	}
	d, err := embedded()
	if err != nil {
		return err
	}
	creator, provider := cmd.String("creator"), cmd.String("provider")
	if provider != "" {
		if err := d.Catalog.CheckProvider(provider); err != nil {
			return err
		}
	}
	out := listOutput{CatalogCommit: d.Catalog.Source.Commit, Creator: creator, Provider: provider, Models: []listEntry{}}
	for _, id := range d.Catalog.IDs() {
		m, err := d.Catalog.Model(id)
		if err != nil {
			return err
		}
		if _, mapped := m.Providers[provider]; (creator != "" && m.Creator != creator) || (provider != "" && !mapped) {
			continue
		}
		e := listEntry{ID: id, Name: m.Name, Creator: m.Creator, ToolCall: m.ToolCall, OutputsText: m.OutputsText(), Providers: m.ProviderIDs()}
		if provider != "" {
			res, err := d.Resolve(id, provider)
			if err != nil {
				return err
			}
			e.NativeID, e.Origin = res.NativeID, res.Origin
		}
		out.Models = append(out.Models, e)
	}
	if cmd.Bool("json") {
		return printJSON(cmd, out)
	}
	w := cmd.Root().Writer
	for _, e := range out.Models {
		if provider != "" {
			fmt.Fprintf(w, "%s\t%s\t%s\n", e.ID, e.NativeID, e.Origin)
		} else {
			fmt.Fprintf(w, "%s\t%s\t%d providers\n", e.ID, e.Name, len(e.Providers))
		}
	}
	return nil
}

func showCommand() *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "show one canonical model with all its native IDs",
		UsageText: "stratos-models show <canonical-id> [--json]",
		Flags:     []cli.Flag{cliapp.JSONFlag()},
		Action:    runShow,
	}
}

// showOutput is the JSON document of `show --json`: the catalog model, plus
// the native ID a lookup returns on each provider.
type showOutput struct {
	ID            string `json:"id"`
	CatalogCommit string `json:"catalogCommit"`
	*catalog.Model
	Preferred map[string]catalog.NativeID `json:"preferred"`
}

func runShow(_ context.Context, cmd *cli.Command) error {
	if err := cliapp.ExactArgs(cmd, 1, 1, "<canonical-id>"); err != nil {
		return err
	}
	d, err := embedded()
	if err != nil {
		return err
	}
	id := cmd.Args().First()
	m, err := d.Catalog.Model(id)
	if err != nil {
		return err
	}
	out := showOutput{ID: id, CatalogCommit: d.Catalog.Source.Commit, Model: m, Preferred: map[string]catalog.NativeID{}}
	for p, ids := range m.Providers {
		out.Preferred[p] = d.Ordered(p, ids)[0]
	}
	if cmd.Bool("json") {
		return printJSON(cmd, out)
	}
	w := cmd.Root().Writer
	fmt.Fprintf(w, "%s — %s (catalog %s)\n", id, m.Name, d.Catalog.Source.Commit)
	fmt.Fprintf(w, "  tool calls: %v, reasoning: %v, output: %s, context: %d\n",
		m.ToolCall, m.Reasoning, strings.Join(m.Modalities.Output, ","), m.Limit.Context)
	if len(m.Providers) == 0 {
		fmt.Fprintln(w, "  no provider mappings")
	}
	for _, p := range m.ProviderIDs() {
		var ids []string
		for _, n := range d.Ordered(p, m.Providers[p]) {
			ids = append(ids, n.ID+" ("+n.Origin+")")
		}
		fmt.Fprintf(w, "  %s: %s\n", p, strings.Join(ids, ", "))
	}
	return nil
}

func resolveCommand() *cli.Command {
	return &cli.Command{
		Name:      "resolve",
		Usage:     "print the native ID of a canonical model on a provider",
		UsageText: "stratos-models resolve <canonical-id> --provider <p> [--json]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "provider", Usage: "Models.dev provider ID (e.g. anthropic, amazon-bedrock, openrouter), or ollama", Required: true},
			cliapp.JSONFlag(),
		},
		Action: runResolve,
	}
}

func runResolve(_ context.Context, cmd *cli.Command) error {
	if err := cliapp.ExactArgs(cmd, 1, 1, "<canonical-id> --provider <p>"); err != nil {
		return err
	}
	d, err := embedded()
	if err != nil {
		return err
	}
	res, err := d.Resolve(cmd.Args().First(), cmd.String("provider"))
	if err != nil {
		return err
	}
	if cmd.Bool("json") {
		return printJSON(cmd, res)
	}
	fmt.Fprintln(cmd.Root().Writer, res.NativeID)
	return nil
}
