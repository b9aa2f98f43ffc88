package mcpserve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/agentapi"
)

// Command is `stratos mcp serve`, for the `stratos mcp` group.
func Command() *cli.Command {
	return &cli.Command{
		Name:      "serve",
		Usage:     "serve the project's workflows to coding agents over MCP (stdio, or --http on loopback)",
		UsageText: "stratos mcp serve [--http 127.0.0.1:PORT] [--tools-per-workflow]",
		Description: cliapp.Lines(
			"Runs an MCP server for the project of the working directory (and the user root) with the",
			"tools list_workflows, describe_workflow, run_workflow, run_status, run_logs and stop_run.",
			"It speaks MCP on stdin/stdout; with --http it serves streamable HTTP on a loopback address",
			"instead. Runs it starts are ordinary runs: `stratos runs` lists them. Progress and the",
			"tools' logs go to stderr."),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "http", Usage: "serve streamable HTTP on this loopback `ADDR` (127.0.0.1:PORT, [::1]:PORT, localhost:PORT) instead of stdio"},
			&cli.BoolFlag{Name: "tools-per-workflow", Usage: "also offer each built workflow as a tool wf_<name> whose input schema is the workflow's"},
		},
		Action: serve,
	}
}

func serve(ctx context.Context, cmd *cli.Command) error {
	if err := cliapp.ExactArgs(cmd, 0, 0, "[--http 127.0.0.1:PORT] [--tools-per-workflow]"); err != nil {
		return err
	}
	addr := cmd.String("http")
	if addr != "" {
		if err := CheckLoopback(addr); err != nil {
			return err
		}
	}
	s, err := New(Options{Stderr: cmd.Root().ErrWriter, ToolsPerWorkflow: cmd.Bool("tools-per-workflow")})
	if err != nil {
		return err
	}
	defer s.Close()
	if addr == "" {
		return quietEOF(s.MCP().Run(ctx, &stdioTransport{in: cmd.Root().Reader, out: cmd.Root().Writer}))
	}
	return serveHTTP(ctx, s.MCP(), addr, cmd)
}

// quietEOF treats the client closing stdin as the normal end of a session.
func quietEOF(err error) error {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil
	}
	return err
}

// serveHTTP serves streamable HTTP on addr until ctx is done, then shuts
// the server down.
func serveHTTP(ctx context.Context, s *mcp.Server, addr string, cmd *cli.Command) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return clierr.New(agentapi.CodeListenFailed, "listen on %s: %v", addr, err).Wrap(err)
	}
	if tcp, ok := ln.Addr().(*net.TCPAddr); !ok || !tcp.IP.IsLoopback() {
		ln.Close()
		return clierr.Usage(agentapi.CodeListenNotLoopback, "--http %q: it resolved to %s, which is not a loopback address", addr, ln.Addr())
	}
	fmt.Fprintf(cmd.Root().ErrWriter, "stratos mcp serve: listening on http://%s/\n", ln.Addr())
	srv := &http.Server{Handler: httpHandler(s), ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), stopGrace)
		defer cancel()
		return srv.Shutdown(shutdown)
	}
}

// httpHandler serves s as streamable HTTP. Each message is a request of
// its own there: a malformed one is refused (400) and the session goes on.
func httpHandler(s *mcp.Server) http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
}

// CheckLoopback accepts host:port whose host is a loopback address or
// localhost: the server runs workflows (agents with tools) for whoever
// reaches it, so it is never offered to the network.
func CheckLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return clierr.Usage(agentapi.CodeListenNotLoopback, "--http %q: %v; give a loopback host:port such as 127.0.0.1:8765", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return clierr.Usage(agentapi.CodeListenNotLoopback, "--http %q: %q is not a loopback address; stratos mcp serve listens on 127.0.0.1, ::1 or localhost only", addr, host).
		WithDetails(map[string]any{"addr": addr})
}
