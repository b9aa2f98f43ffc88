package mcpserve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/shared/loopbackguard"
)

// TokenEnv names the variable that chooses the bearer token of --http, so
// that a client's configuration can name it (Codex's bearer_token_env_var,
// Claude Code's and OpenCode's headers with ${…}).
const TokenEnv = "STRATOS_MCP_TOKEN"

// minTokenLen is the shortest token accepted from TokenEnv: 32 characters
// of a random hex or base64 string are beyond guessing.
const minTokenLen = 32

// httpToken is the bearer token of --http and whether Stratos made it.
type httpToken struct {
	value     string
	generated bool
}

// tokenFor returns TokenEnv's value, or a fresh random token when it is
// unset; a set but short value is a usage error (it would be guessable).
func tokenFor(lookup func(string) (string, bool)) (httpToken, error) {
	if v, ok := lookup(TokenEnv); ok {
		if len(v) < minTokenLen {
			return httpToken{}, clierr.Usage(runapi.CodeMCPTokenInvalid, "$%s holds %d characters; a bearer token needs at least %d (e.g. openssl rand -hex 32)", TokenEnv, len(v), minTokenLen).
				WithDetails(map[string]any{"variable": TokenEnv, "minLength": minTokenLen})
		}
		return httpToken{value: v}, nil
	}
	t, err := loopbackguard.NewToken()
	return httpToken{value: t, generated: true}, err
}

// Command is `stratos mcp serve`, for the `stratos mcp` group.
func Command() *cli.Command {
	return &cli.Command{
		Name:      "serve",
		Usage:     "serve the project's workflows to coding agents over MCP (stdio, or --http on loopback)",
		UsageText: "stratos mcp serve [--http 127.0.0.1:PORT] [--tools-per-workflow]",
		Description: cliapp.Lines(
			"Runs an MCP server for the project of the working directory (and the user root) with the",
			"tools list_workflows, describe_workflow, run_workflow, start_workflow, run_result,",
			"run_status, run_logs and stop_run.",
			"It speaks MCP on stdin/stdout; with --http it serves streamable HTTP on a loopback address",
			"instead. Runs it starts are ordinary runs: `stratos runs` lists them. Progress and the",
			"tools' logs go to stderr.",
			"",
			"Over --http every request must carry \"Authorization: Bearer <token>\": the server runs",
			"workflows (agents with tools) as you, and other users of the machine can reach loopback",
			"ports too. The token is $"+TokenEnv+" when set (at least 32 characters), else a random one",
			"printed on stderr. Host must name the server and Origin, when sent, be its own (web pages",
			"in your browser cannot drive it)."),
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
	var token httpToken
	if addr != "" {
		if err := CheckLoopback(addr); err != nil {
			return err
		}
		var err error
		if token, err = tokenFor(os.LookupEnv); err != nil {
			return err
		}
	}
	s, err := New(Options{Stderr: cmd.Root().ErrWriter, ToolsPerWorkflow: cmd.Bool("tools-per-workflow")})
	if err != nil {
		return err
	}
	defer s.Close()
	defer context.AfterFunc(ctx, s.CancelRuns)()
	if addr == "" {
		err = quietEOF(s.MCP().Run(ctx, &stdioTransport{in: cmd.Root().Reader, out: cmd.Root().Writer}))
	} else {
		err = serveHTTP(ctx, s, addr, token, cmd)
	}
	return interrupted(ctx, err)
}

// quietEOF treats the client closing stdin as the normal end of a session.
func quietEOF(err error) error {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil
	}
	return err
}

// interrupted makes a server stopped by SIGINT or SIGTERM exit 130, as
// every Stratos command stopped so does, once its runs have ended.
func interrupted(ctx context.Context, err error) error {
	if ctx.Err() == nil {
		return err
	}
	return clierr.New(errcode.CodeInterrupted, "interrupted; the runs the server started were cancelled")
}

// serveHTTP serves streamable HTTP on addr until ctx is done, then shuts
// the server down.
func serveHTTP(ctx context.Context, s *Server, addr string, token httpToken, cmd *cli.Command) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return clierr.New(runapi.CodeListenFailed, "listen on %s: %v", addr, err).Wrap(err)
	}
	if tcp, ok := ln.Addr().(*net.TCPAddr); !ok || !tcp.IP.IsLoopback() {
		ln.Close()
		return clierr.Usage(runapi.CodeListenNotLoopback, "--http %q: it resolved to %s, which is not a loopback address", addr, ln.Addr())
	}
	stderr := cmd.Root().ErrWriter
	fmt.Fprintf(stderr, "stratos mcp serve: listening on http://%s/\n", ln.Addr())
	if token.generated {
		fmt.Fprintf(stderr, "stratos mcp serve: clients send \"Authorization: Bearer %s\" (set %s to choose the token)\n", token.value, TokenEnv)
	} else {
		fmt.Fprintf(stderr, "stratos mcp serve: clients send \"Authorization: Bearer $%s\"\n", TokenEnv)
	}
	srv := &http.Server{Handler: loopbackguard.Guard{Token: token.value}.Wrap(httpHandler(s)), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
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
// A session's end cancels the runs it started.
//
// The SDK's handler speaks either the session-less protocol (2026-07-28
// on: each request names its version in the MCP-Protocol-Version header)
// or the initialize-era ones with sessions, not both; so a request naming
// a session-less version goes to a stateless handler, every other one
// (initialize carries no header) to the handler with sessions. A
// session-less call's run ends when its request does.
func httpHandler(s *Server) http.Handler {
	m := s.MCP()
	get := func(*http.Request) *mcp.Server { return m }
	events := mcp.NewMemoryEventStore(nil)
	events.SetMaxBytes(eventStoreBytes)
	sessions := s.endingSessions(mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{EventStore: events}))
	sessionless := mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{Stateless: true, PropagateRequestCancellation: true})
	return advisingRetry(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if v := r.Header.Get(protocolVersionHeader); v >= firstSessionless {
			sessionless.ServeHTTP(w, r)
			return
		}
		sessions.ServeHTTP(w, r)
	}))
}

// protocolVersionHeader names the protocol version of a request after
// initialize (or of every request, session-less).
const protocolVersionHeader = "MCP-Protocol-Version"

// firstSessionless is the first protocol version without initialize and
// sessions; versions are dates, so they compare as strings.
const firstSessionless = "2026-07-28"

// CheckLoopback accepts host:port whose host is a loopback address or
// localhost: the server runs workflows (agents with tools) for whoever
// reaches it, so it is never offered to the network.
func CheckLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return clierr.Usage(runapi.CodeListenNotLoopback, "--http %q: %v; give a loopback host:port such as 127.0.0.1:8765", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return clierr.Usage(runapi.CodeListenNotLoopback, "--http %q: %q is not a loopback address; stratos mcp serve listens on 127.0.0.1, ::1 or localhost only", addr, host).
		WithDetails(map[string]any{"addr": addr})
}
