package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/agentapi"
	"github.com/stratoscli/stratos/shared/contract/discoverapi"
	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/mcpauth"
	"github.com/stratoscli/stratos/shared/mcpclient"
	"github.com/stratoscli/stratos/shared/mcpdecl"
	"github.com/stratoscli/stratos/shared/roots"
)

// mcpCommand is the `stratos mcp` group: commands about the MCP servers
// workflows declare. Each subcommand is one file's worth of behaviour, so
// the group grows (login, status) without the others changing. `stratos mcp
// serve` is stratos-run's (it serves runs): the dispatcher sends that one
// subcommand there, and the group's help says so for whoever looks here.
func mcpCommand() *cli.Command {
	return &cli.Command{
		Name:  "mcp",
		Usage: "the MCP servers workflows declare (tools, login, logout, status)",
		Description: cliapp.Lines(
			"Serving the project's workflows to coding agents over MCP is `stratos mcp serve`, which",
			"runs stratos-run (stratos-run mcp serve; stratos mcp serve --help for its flags)."),
		Commands: []*cli.Command{mcpToolsCommand(), mcpLoginCommand(), mcpLogoutCommand(), mcpStatusCommand()},
	}
}

func mcpToolsCommand() *cli.Command {
	return &cli.Command{
		Name:      "tools",
		Usage:     "list the tools each MCP server of a workflow offers",
		ArgsUsage: "<workflow> [<server>]",
		UsageText: "stratos mcp tools <workflow> [<server>] [--json]",
		Description: cliapp.Lines(
			"Connects to every server the workflow declares in workflow.yaml (mcp.servers), or to",
			"the one named, and lists its tools with their input and output JSON Schemas. Stdio",
			"servers are started and stopped again; ${NAME} references are resolved from the",
			"environment. No tool is called."),
		Flags:  []cli.Flag{cliapp.JSONFlag()},
		Action: listMCPTools,
	}
}

// mcpToolsListing is the JSON document of `stratos mcp tools --json`.
type mcpToolsListing struct {
	Workflow string                  `json:"workflow"`
	Dir      string                  `json:"dir"`
	Servers  []mcpclient.ServerTools `json:"servers"`
}

func listMCPTools(ctx context.Context, cmd *cli.Command) error {
	if err := cliapp.ExactArgs(cmd, 1, 2, "<workflow> [<server>] [--json]"); err != nil {
		return err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return clierr.New(discoverapi.CodeCwdUnreadable, "read working directory: %v", err)
	}
	w, _, err := discovery.Resolve(cwd, cmd.Args().First(), roots.Both)
	if err != nil {
		return err
	}
	servers, err := mcpdecl.Load(w.Dir)
	if err != nil {
		return declarationError(err)
	}
	names := servers.Names()
	if one := cmd.Args().Get(1); one != "" {
		if _, ok := servers[one]; !ok {
			return clierr.Usage(agentapi.CodeMCPServerUnknown, "workflow %s declares no MCP server %q (declared: %s)", w.Manifest.Name, one, orNone(names)).
				WithDetails(map[string]any{"workflow": w.Manifest.Name, "server": one, "declared": names})
		}
		names = []string{one}
	}
	found, err := mcpclient.Discover(ctx, w.Dir, servers, names, os.LookupEnv, mcpclient.Options{Stderr: cmd.Root().ErrWriter, Workflow: w.Manifest.Name})
	if err != nil {
		return discoveryError(w.Manifest.Name, err)
	}
	listing := mcpToolsListing{Workflow: w.Manifest.Name, Dir: w.Dir, Servers: found}
	if cmd.Bool("json") {
		return clierr.PrintJSON(cmd.Root().Writer, listing)
	}
	return writeMCPTools(cmd.Root().Writer, listing)
}

func writeMCPTools(out io.Writer, l mcpToolsListing) error {
	if len(l.Servers) == 0 {
		_, err := fmt.Fprintf(out, "workflow %s declares no MCP servers (mcp.servers in workflow.yaml)\n", l.Workflow)
		return err
	}
	var b strings.Builder
	for i, s := range l.Servers {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s (%s, protocol %s): %d tools\n", s.Server, s.Transport, s.ProtocolVersion, len(s.Tools))
		for _, t := range s.Tools {
			fmt.Fprintf(&b, "  %s", t.Name)
			if d := firstLine(t.Description); d != "" {
				fmt.Fprintf(&b, " — %s", d)
			}
			b.WriteString("\n")
		}
	}
	_, err := io.WriteString(out, b.String())
	return err
}

// declarationError turns an invalid mcp section into a usage error listing
// every problem with its field path.
func declarationError(err error) error {
	var inv *mcpdecl.InvalidError
	if !errors.As(err, &inv) {
		return err
	}
	return clierr.Usage(agentapi.CodeMCPConfigInvalid, "%s", inv.Error()).WithDetails(map[string]any{"file": inv.File, "problems": inv.Problems})
}

// discoveryError names the server that failed; an unset variable keeps its
// own code so scripts can tell "export it" from "the server is down".
func discoveryError(workflow string, err error) error {
	var de *mcpclient.DiscoveryError
	if !errors.As(err, &de) {
		return err
	}
	details := map[string]any{"workflow": workflow, "server": de.Server}
	var missing *mcpdecl.MissingVariableError
	if errors.As(err, &missing) {
		details["variable"] = missing.Variable
		return clierr.New(agentapi.CodeMCPEnvMissing, "workflow %s: %v", workflow, missing).WithDetails(details).Wrap(err)
	}
	var auth *mcpauth.ServerError
	if errors.As(err, &auth) {
		details["login"] = mcpauth.LoginCommand(workflow, de.Server)
		return clierr.New(agentapi.CodeMCPAuthRequired, "workflow %s: %v", workflow, auth).WithDetails(details).Wrap(err)
	}
	var timeout *mcpclient.TimeoutError
	if errors.As(err, &timeout) {
		details["timeout"], details["field"] = timeout.Timeout.String(), timeout.Field
		return clierr.New(agentapi.CodeMCPConnectTimeout, "workflow %s: %v", workflow, timeout).WithDetails(details).Wrap(err)
	}
	return clierr.New(agentapi.CodeMCPDiscoveryFailed, "workflow %s: %v", workflow, err).WithDetails(details).Wrap(err)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
