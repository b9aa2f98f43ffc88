package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/agentapi"
	"github.com/stratoscli/stratos/shared/contract/discoverapi"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/mcpauth"
	"github.com/stratoscli/stratos/shared/mcpdecl"
	"github.com/stratoscli/stratos/shared/roots"
)

// defaultLoginTimeout is how long `stratos mcp login` waits for the browser
// to come back.
const defaultLoginTimeout = 5 * time.Minute

func mcpLoginCommand() *cli.Command {
	return &cli.Command{
		Name:      "login",
		Usage:     "log in to an MCP server a workflow declares with oauth",
		ArgsUsage: "<workflow> <server>",
		UsageText: "stratos mcp login <workflow> <server> [--open] [--timeout D] [--json]",
		Description: cliapp.Lines(
			"Runs the OAuth authorization code flow with PKCE for an HTTP server declared with",
			"oauth in workflow.yaml: discovers the authorization server from the server's",
			"protected-resource metadata, registers a client dynamically unless oauth.clientId",
			"names one, prints the authorization URL on stderr (--open also opens a browser) and",
			"waits for the redirect on a one-time listener on 127.0.0.1. The tokens are stored",
			"under ~/.stratos/mcp-auth (mode 0600) and never printed; nothing is stored unless",
			"the login completes."),
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "open", Usage: "also open the authorization URL in the default browser"},
			&cli.DurationFlag{Name: "timeout", Value: defaultLoginTimeout, Usage: "how long to wait for the browser to come back"},
			cliapp.JSONFlag(),
		},
		Action: mcpLogin,
	}
}

func mcpLogoutCommand() *cli.Command {
	return &cli.Command{
		Name:      "logout",
		Usage:     "forget the stored OAuth credentials of a workflow's MCP servers",
		ArgsUsage: "<workflow> [<server>]",
		UsageText: "stratos mcp logout <workflow> [<server>] [--json]",
		Description: cliapp.Lines(
			"Removes the stored credentials of the named server, or of every server the workflow",
			"declares with oauth. Workflows declaring the same server (URL and clientId) share",
			"its login, so they are logged out too."),
		Flags:  []cli.Flag{cliapp.JSONFlag()},
		Action: mcpLogout,
	}
}

func mcpStatusCommand() *cli.Command {
	return &cli.Command{
		Name:      "status",
		Usage:     "show whether the OAuth MCP servers are logged in",
		ArgsUsage: "[<workflow>]",
		UsageText: "stratos mcp status [<workflow>] [--json]",
		Description: cliapp.Lines(
			"For each server the workflow declares with oauth (without a workflow: each stored",
			"login): whether it is logged in, when its access token expires and whether it can be",
			"refreshed. Nothing is refreshed and no token is shown."),
		Flags:  []cli.Flag{cliapp.JSONFlag()},
		Action: mcpStatus,
	}
}

// oauthTarget is a workflow's server declared with oauth, resolved.
type oauthTarget struct {
	workflow string
	server   mcpdecl.Server
	id       mcpauth.Identity
}

// oauthTargets resolves the workflow named by the first argument and its
// servers declared with oauth: the one named by the second argument (an
// error unless it has oauth), or all.
func oauthTargets(cmd *cli.Command) (string, []oauthTarget, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return "", nil, clierr.New(discoverapi.CodeCwdUnreadable, "read working directory: %v", err)
	}
	w, _, err := discovery.Resolve(cwd, cmd.Args().First(), roots.Both)
	if err != nil {
		return "", nil, err
	}
	servers, err := mcpdecl.Load(w.Dir)
	if err != nil {
		return "", nil, declarationError(err)
	}
	name := w.Manifest.Name
	names := servers.Names()
	if one := cmd.Args().Get(1); one != "" {
		decl, ok := servers[one]
		if !ok {
			return "", nil, clierr.Usage(agentapi.CodeMCPServerUnknown, "workflow %s declares no MCP server %q (declared: %s)", name, one, orNone(names)).
				WithDetails(map[string]any{"workflow": name, "server": one, "declared": names})
		}
		if decl.OAuth == nil {
			return "", nil, clierr.Usage(agentapi.CodeMCPNotOAuth, "workflow %s: MCP server %q is not declared with oauth (mcp.servers.%s.oauth in workflow.yaml)", name, one, one).
				WithDetails(map[string]any{"workflow": name, "server": one})
		}
		names = []string{one}
	}
	var out []oauthTarget
	for _, n := range names {
		if servers[n].OAuth == nil {
			continue
		}
		t, err := resolveOAuthTarget(name, w.Dir, servers[n])
		if err != nil {
			return "", nil, err
		}
		out = append(out, t)
	}
	return name, out, nil
}

func resolveOAuthTarget(workflow, dir string, decl mcpdecl.Server) (oauthTarget, error) {
	server, err := decl.Resolve(dir, os.LookupEnv)
	if err != nil {
		details := map[string]any{"workflow": workflow, "server": decl.Name}
		var missing *mcpdecl.MissingVariableError
		if errors.As(err, &missing) {
			details["variable"] = missing.Variable
		}
		return oauthTarget{}, clierr.New(agentapi.CodeMCPEnvMissing, "workflow %s: %v", workflow, err).WithDetails(details).Wrap(err)
	}
	id, err := mcpauth.IdentityOf(server.URL, server.OAuth.ClientID)
	if err != nil {
		return oauthTarget{}, clierr.Usage(agentapi.CodeMCPConfigInvalid, "workflow %s: mcp.servers.%s.url: %v", workflow, decl.Name, err)
	}
	return oauthTarget{workflow: workflow, server: server, id: id}, nil
}

// oauthScope is what login, logout and status of one workflow work on:
// the workflow's name, its servers declared with oauth (see oauthTargets)
// and the credential store.
type oauthScope struct {
	workflow string
	targets  []oauthTarget
	store    mcpauth.Store
}

// workflowOAuth is the prelude of every `stratos mcp` login command that
// names a workflow: its servers first (what the user typed is checked
// before the home it is stored under), then the store.
func workflowOAuth(cmd *cli.Command) (oauthScope, error) {
	workflow, targets, err := oauthTargets(cmd)
	if err != nil {
		return oauthScope{}, err
	}
	store, err := credentialStore()
	if err != nil {
		return oauthScope{}, err
	}
	return oauthScope{workflow: workflow, targets: targets, store: store}, nil
}

func credentialStore() (mcpauth.Store, error) {
	home, err := roots.StratosHome()
	if err != nil {
		return mcpauth.Store{}, clierr.New(agentapi.CodeHomeUnknown, "%v", err)
	}
	return mcpauth.Open(home), nil
}

// loginResult is the JSON document of `stratos mcp login --json`.
type loginResult struct {
	Workflow string `json:"workflow"`
	Server   string `json:"server"`
	serverStatus
}

func mcpLogin(ctx context.Context, cmd *cli.Command) error {
	if err := cliapp.ExactArgs(cmd, 2, 2, "<workflow> <server> [--open] [--timeout D] [--json]"); err != nil {
		return err
	}
	scope, err := workflowOAuth(cmd)
	if err != nil {
		return err
	}
	workflow, t := scope.workflow, scope.targets[0]
	stderr := cmd.Root().ErrWriter
	wait := cmd.Duration("timeout")
	lctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	rec, err := mcpauth.Login(lctx, scope.store, t.server, mcpauth.LoginOptions{Visit: func(url string) error {
		fmt.Fprintf(stderr, "To log in to MCP server %s of workflow %s, open this URL in a browser:\n\n  %s\n\nWaiting up to %s for the authorization…\n", t.server.Name, workflow, url, wait)
		if cmd.Bool("open") {
			openBrowser(ctx, url, stderr)
		}
		return nil
	}})
	if err != nil {
		return loginError(ctx, lctx, workflow, t.server.Name, wait, err)
	}
	res := loginResult{Workflow: workflow, Server: t.server.Name, serverStatus: statusOf(rec, time.Now())}
	if cmd.Bool("json") {
		return clierr.PrintJSON(cmd.Root().Writer, res)
	}
	_, err = fmt.Fprintf(cmd.Root().Writer, "logged in to %s (%s): %s\n", t.server.Name, rec.Resource, res.describe())
	return err
}

func loginError(ctx, lctx context.Context, workflow, server string, wait time.Duration, err error) error {
	details := map[string]any{"workflow": workflow, "server": server}
	switch {
	case ctx.Err() != nil:
		ce := clierr.New(errcode.CodeInterrupted, "interrupted while logging in to %s; nothing was stored", server).WithDetails(details)
		ce.Exit = clierr.ExitInterrupted
		return ce
	case errors.Is(lctx.Err(), context.DeadlineExceeded):
		return clierr.New(agentapi.CodeMCPLoginTimeout, "logging in to MCP server %q of workflow %s: no authorization within %s; nothing was stored", server, workflow, wait).WithDetails(details)
	}
	return clierr.New(agentapi.CodeMCPLoginFailed, "workflow %s: %v", workflow, err).WithDetails(details).Wrap(err)
}

// openBrowser asks the desktop to open url; failing that, the printed URL
// is still there.
func openBrowser(ctx context.Context, url string, stderr io.Writer) {
	opener := "xdg-open"
	if runtime.GOOS == "darwin" {
		opener = "open"
	}
	if err := exec.CommandContext(ctx, opener, url).Run(); err != nil {
		fmt.Fprintf(stderr, "could not open a browser (%v); open the URL yourself\n", err)
	}
}

// logoutResult is the JSON document of `stratos mcp logout --json`.
type logoutResult struct {
	Workflow string         `json:"workflow"`
	Servers  []loggedOutOne `json:"servers"`
}

type loggedOutOne struct {
	Server  string `json:"server"`
	Removed bool   `json:"removed"`
}

func mcpLogout(_ context.Context, cmd *cli.Command) error {
	if err := cliapp.ExactArgs(cmd, 1, 2, "<workflow> [<server>] [--json]"); err != nil {
		return err
	}
	scope, err := workflowOAuth(cmd)
	if err != nil {
		return err
	}
	res := logoutResult{Workflow: scope.workflow, Servers: []loggedOutOne{}}
	var b strings.Builder
	for _, t := range scope.targets {
		removed, err := scope.store.Delete(t.id)
		if err != nil {
			return clierr.New(agentapi.CodeMCPCredentialsError, "%v", err).Wrap(err)
		}
		res.Servers = append(res.Servers, loggedOutOne{Server: t.server.Name, Removed: removed})
		if removed {
			fmt.Fprintf(&b, "logged out of %s (%s)\n", t.server.Name, t.id.Resource)
		} else {
			fmt.Fprintf(&b, "%s (%s) was not logged in\n", t.server.Name, t.id.Resource)
		}
	}
	if len(scope.targets) == 0 {
		fmt.Fprintf(&b, "workflow %s declares no MCP servers with oauth\n", scope.workflow)
	}
	if cmd.Bool("json") {
		return clierr.PrintJSON(cmd.Root().Writer, res)
	}
	_, err = io.WriteString(cmd.Root().Writer, b.String())
	return err
}
