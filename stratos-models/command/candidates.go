package command

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/stratos-models/internal/candidates"
)

func candidatesCommand() *cli.Command {
	return &cli.Command{
		Name:      "candidates",
		Usage:     "order the harness/model/provider combinations an agent will try",
		UsageText: "stratos-models candidates --model <id> [--model <id>…] [--harness <h>] [--provider <p>] [--backend <harness>=<provider>…] [--json]",
		Description: cliapp.Lines(
			"Without --harness: first every model with its creator's first-party harness (anthropic → claude-code,",
			"openai → codex), then every model through opencode. With --harness: only that harness.",
			"With --provider ollama the models are native Ollama names and --harness codex|opencode is required.",
			"--backend tells which provider a harness's adapter is configured for (defaults: anthropic for",
			"claude-code, openai for codex; for opencode anthropic, openai or google after the model's creator).",
			"--harness-rules - reads the harnesses' rules as JSON on stdin ({\"harnesses\": {<name>: <rules>}}, the",
			"agent host's registered harnesses) in place of the provider mapping's packaged copy.",
		),
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "model", Usage: "canonical model ID (repeat for an ordered list)", Required: true},
			&cli.StringFlag{Name: "harness", Usage: "explicit harness: claude-code, codex, gemini, opencode or qwen"},
			&cli.StringFlag{Name: "provider", Usage: "explicit provider for every harness (e.g. azure, ollama)"},
			&cli.StringSliceFlag{Name: "backend", Usage: "harness=provider its adapter is configured for (repeatable)"},
			&cli.StringFlag{Name: "harness-rules", Usage: "`-`: read the harnesses' selection rules as JSON on stdin"},
			cliapp.JSONFlag(),
		},
		Action: runCandidates,
	}
}

func runCandidates(ctx context.Context, cmd *cli.Command) error {
	if err := cliapp.ExactArgs(cmd, 0, 0, "--model <id> [--model <id>…] [--harness <h>] [--provider <p>]"); err != nil {
		return err
	}
	backends, err := parseBackends(cmd.StringSlice("backend"))
	if err != nil {
		return err
	}
	d, err := embedded()
	if err != nil {
		return err
	}
	if d, err = withHarnessRules(ctx, cmd, d); err != nil {
		return err
	}
	res, err := candidates.Build(d, candidates.Request{
		Models: cmd.StringSlice("model"), Harness: cmd.String("harness"), Provider: cmd.String("provider"), Backends: backends,
	})
	if err != nil {
		return err
	}
	if cmd.Bool("json") {
		return printJSON(cmd, res)
	}
	w := cmd.Root().Writer
	for i, c := range res.Candidates {
		fmt.Fprintf(w, "%d. %s  %s  %s: %s  (%s, %s)\n", i+1, c.Harness, c.Model, c.Provider, c.NativeID, c.Pass, c.Eligibility)
	}
	for _, e := range res.Excluded {
		fmt.Fprintf(w, "excluded: %s  %s  %s: %s\n", e.Harness, e.Model, e.Reason, e.Message)
	}
	return nil
}

// parseBackends reads repeated harness=provider values.
func parseBackends(values []string) (map[string]string, error) {
	out := map[string]string{}
	for _, v := range values {
		h, p, ok := strings.Cut(v, "=")
		if !ok || h == "" || p == "" {
			return nil, clierr.Usage(modelsapi.CodeInvalidBackend, "invalid --backend %q: want <harness>=<provider>, e.g. claude-code=amazon-bedrock", v)
		}
		if prev, dup := out[h]; dup && prev != p {
			return nil, clierr.Usage(modelsapi.CodeInvalidBackend, "--backend names two providers for %s: %s and %s", h, prev, p)
		}
		out[h] = p
	}
	return out, nil
}

func mappingCommand() *cli.Command {
	return &cli.Command{
		Name:      "mapping",
		Usage:     "print the provider-to-harness mapping (provider-mapping.v1.json) adapters consume",
		UsageText: "stratos-models mapping [--json]",
		Flags:     []cli.Flag{cliapp.JSONFlag()},
		Action:    runMapping,
	}
}

func runMapping(_ context.Context, cmd *cli.Command) error {
	if err := cliapp.ExactArgs(cmd, 0, 0, "[--json]"); err != nil {
		return err
	}
	d, err := embedded()
	if err != nil {
		return err
	}
	if cmd.Bool("json") {
		return printJSON(cmd, d.Mapping)
	}
	w := cmd.Root().Writer
	for _, id := range d.Mapping.HarnessIDs() {
		h := d.Mapping.Harnesses[id]
		fmt.Fprintf(w, "%s (%s)\n", id, h.Name)
		for _, p := range h.ProviderIDs() {
			hp := h.Providers[p]
			fmt.Fprintf(w, "  %s: env=%v modelProvider=%s providerTable=%s nativeNames=%v\n", p, hp.Env, hp.ModelProvider, hp.ProviderTable, hp.NativeNames)
		}
		if h.CatalogProviders {
			fmt.Fprintln(w, "  every Models.dev provider ID is also a provider ID of this harness")
		}
	}
	return nil
}
