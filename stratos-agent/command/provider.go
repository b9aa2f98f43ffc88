package command

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/agentapi"
	"github.com/stratoscli/stratos/shared/ollama"
)

// providerCommand is `stratos provider status ollama [--json]`.
func providerCommand() *cli.Command {
	return &cli.Command{
		Name:  "provider",
		Usage: "diagnose model providers that run on this machine",
		Commands: []*cli.Command{{
			Name:      "status",
			Usage:     "report whether a local provider's server is reachable and which models agents can use",
			ArgsUsage: "ollama",
			Description: cliapp.Lines(
				"Diagnoses the Ollama server of $OLLAMA_HOST (default http://127.0.0.1:11434): whether it",
				"answers, its version, every installed model with its capabilities and context, and which",
				"models agents can use (installed locally, with the completion and tools capabilities).",
				"It reads /api/version, /api/tags and /api/show only: nothing is pulled, loaded or changed.",
				"It also prints how to install and start Ollama on this operating system; Stratos never",
				"runs those commands. An unreachable server is a diagnosis (exit 0, reachable false)."),
			Flags:  []cli.Flag{cliapp.JSONFlag()},
			Action: providerStatus,
		}},
	}
}

func providerStatus(ctx context.Context, cmd *cli.Command) error {
	if err := cliapp.ExactArgs(cmd, 1, 1, "ollama [--json]"); err != nil {
		return err
	}
	if name := cmd.Args().First(); name != ollama.Provider {
		return clierr.Usage(agentapi.CodeUnknownProvider, "unknown provider %q: status knows ollama", name).
			WithDetails(map[string]any{"provider": name})
	}
	host, err := ollama.HostFromEnv(os.Getenv)
	if err != nil {
		return clierr.Usage(agentapi.CodeOllamaHostInvalid, "%v", err).WithDetails(map[string]any{"env": ollama.EnvHost})
	}
	st, err := ollama.Diagnose(ctx, host, os.Getenv(ollama.EnvHost) != "", runtime.GOOS)
	if err != nil {
		return err
	}
	if cmd.Bool("json") {
		return clierr.PrintJSON(cmd.Root().Writer, st)
	}
	return writeStatus(cmd.Root().Writer, st)
}

// writeStatus prints a Status for people.
func writeStatus(w io.Writer, st ollama.Status) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Ollama at %s (%s)\n", st.Host, st.HostSource)
	switch {
	case !st.Reachable:
		fmt.Fprintf(&b, "  not reachable: %s\n", st.Problem.Message)
	default:
		fmt.Fprintf(&b, "  reachable, version %s\n", st.Version)
		if st.Problem != nil {
			fmt.Fprintf(&b, "  inventory problem: %s\n", st.Problem.Message)
		}
	}
	if len(st.Models) > 0 {
		b.WriteString("\nModels:\n")
	}
	for _, m := range st.Models {
		mark := "eligible"
		if !m.Eligible {
			mark = "not eligible: " + m.Reason
		}
		fmt.Fprintf(&b, "  %s  context %d  capabilities %s  (%s)\n", m.Name, m.Context, strings.Join(m.Capabilities, ","), mark)
	}
	if st.Reachable && len(st.Eligible) == 0 {
		b.WriteString("\nNo model can serve an agent yet.\n")
	}
	in := st.Instructions
	fmt.Fprintf(&b, "\nTo do yourself (%s; Stratos does not run these):\n", in.OS)
	section(&b, "install", in.Install)
	section(&b, "start", in.Start)
	section(&b, "add a model", in.Pull)
	section(&b, "context", in.Context)
	_, err := io.WriteString(w, b.String())
	return err
}

func section(b *strings.Builder, title string, lines []string) {
	fmt.Fprintf(b, "  %s:\n", title)
	for _, l := range lines {
		fmt.Fprintf(b, "    %s\n", l)
	}
}
