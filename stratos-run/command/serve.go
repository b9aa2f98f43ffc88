package command

import (
	"context"
	"errors"
	"fmt"
	"github.com/stratoscli/stratos/shared/logging"
	"net"
	"net/http"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/stratos-run/serve"
)

// defaultServePort is the port `stratos serve` listens on without --port.
const defaultServePort = 8737

// idleTimeout closes a browser's keep-alive connection that has asked
// nothing for this long (a stream being answered is not idle), so tabs
// left open and closed do not hold connections for the server's life.
const idleTimeout = 2 * time.Minute

func serveCommand() *cli.Command {
	return &cli.Command{
		Name:      "serve",
		Usage:     "serve a live web view of the runs (list, run tree, events, Stop)",
		UsageText: "stratos serve [--port N] [--host H] [--open]",
		Description: cliapp.Lines(
			"Serves a page app, embedded in the binary, that lists the runs in ~/.stratos/runs and shows",
			"each one live: its tree of invocations and agents, phases and log lines, events, and its",
			"output or error. Prints the page's URL on stdout, then serves until interrupted.",
			"",
			"Every request, reads included, must carry the server's read token: the printed URL carries",
			"it, the page's first load trades it for a cookie, and programs send \"Authorization: Bearer",
			"<token>\". Other users of the machine and web pages of other sites cannot read the records.",
			"On loopback (the default, 127.0.0.1) Host must also name a loopback address and Origin,",
			"when sent, be the server's own (DNS rebinding). Stop also needs the page's write token.",
			"",
			"A non-loopback --host (e.g. 0.0.0.0) serves the records to the network: the server says",
			"so on stderr, and the page is read-only.",
			"",
			"Exit codes: 1 the address cannot be listened on; 2 bad arguments; 130 interrupted (the",
			"normal way to stop the server).",
		),
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "port", Value: defaultServePort, Usage: "the port to listen on (0: any free port)"},
			&cli.StringFlag{Name: "host", Value: "127.0.0.1", Usage: "the address to listen on; a non-loopback one serves the network (warned on stderr) and refuses every write"},
			&cli.BoolFlag{Name: "open", Usage: "open the page in the default browser"},
		},
		Action: serveRuns,
	}
}

func serveRuns(ctx context.Context, cmd *cli.Command) error {
	if err := cliapp.ExactArgs(cmd, 0, 0, "stratos serve [--port N] [--host H] [--open]"); err != nil {
		return err
	}
	port := cmd.Int("port")
	if port < 0 || port > 65535 {
		return clierr.Usage(runapi.CodeServeRequestInvalid, "--port %d is not a port (0 to 65535)", port)
	}
	host := cmd.String("host")
	if strings.TrimSpace(host) == "" {
		// net.Listen takes "" as every address of the machine: an unset
		// shell variable (--host "$HOST") would serve the records to the
		// network, under a URL without a host (http://:8737/).
		return clierr.Usage(runapi.CodeServeRequestInvalid, "--host is empty: give the address to listen on (127.0.0.1, the default, serves this machine only; 0.0.0.0 every network)")
	}
	store, err := openStore()
	if err != nil {
		return err
	}
	// Runs on the Temporal engine whose submitter is gone read as
	// Temporal last said, asked in the background: a page never waits on
	// the server.
	asked, stopAsking := context.WithCancel(ctx)
	temporal := newBackgroundTemporal(asked, newTemporalRuns(logging.New("stratos", cmd.Root().ErrWriter)), backgroundAnswerTTL)
	defer func() { stopAsking(); temporal.wait() }()
	store.Temporal = temporal
	ln, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		return clierr.New(runapi.CodeServeListenFailed, "listen on %s port %d: %v", host, port, err).Wrap(err).
			WithDetails(map[string]any{"host": host, "port": port})
	}
	loopback := serve.IsLoopback(host)
	port = ln.Addr().(*net.TCPAddr).Port
	srv, err := serve.New(serve.Options{Store: store, Loopback: loopback, Port: port})
	if err != nil {
		_ = ln.Close()
		return err
	}
	// The address as the user gave it, with the port listened on (Go
	// reports 0.0.0.0 as [::], which reads as a different address).
	addr := net.JoinHostPort(host, strconv.Itoa(port))
	if !loopback {
		warnNetwork(cmd, addr)
	}
	url := srv.PageURL(addr)
	fmt.Fprintln(cmd.Writer, url)
	if cmd.Bool("open") {
		openBrowser(ctx, url, cmd)
	}
	return serveUntilDone(ctx, ln, srv.Handler())
}

// warnNetwork says, where it cannot be missed, that the records are served
// beyond this machine and what protects them.
func warnNetwork(cmd *cli.Command, addr string) {
	fmt.Fprintf(cmd.ErrWriter, "stratos serve: WARNING: listening on %s, a non-loopback address: every run record\n"+
		"  (inputs, outputs, paths, events) is served to anyone on the network who has the URL below\n"+
		"  (it carries this server's read token; keep it secret). The page is read-only.\n"+
		"  Use --host 127.0.0.1 (the default) to serve this machine only.\n", addr)
}

// serveUntilDone serves on ln until ctx ends, then closes the streams.
func serveUntilDone(ctx context.Context, ln net.Listener, h http.Handler) error {
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: idleTimeout, BaseContext: func(net.Listener) context.Context { return ctx }}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return clierr.New(runapi.CodeServeListenFailed, "serve: %v", err).Wrap(err)
	case <-ctx.Done():
		// Streams end with ctx (their handlers watch it); Shutdown waits
		// for them briefly.
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if err := hs.Shutdown(shut); err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return ctx.Err()
	}
}

// openBrowser asks the desktop to open url; a failure is reported, not
// fatal. The opener exits at once (it hands the URL to the browser), and it
// is waited for so it leaves no zombie.
func openBrowser(ctx context.Context, url string, cmd *cli.Command) {
	name := "xdg-open"
	if runtime.GOOS == "darwin" {
		name = "open"
	}
	c := exec.CommandContext(ctx, name, url)
	if err := c.Start(); err != nil {
		fmt.Fprintf(cmd.ErrWriter, "stratos serve: cannot open a browser (%v); open %s yourself\n", err, url)
		return
	}
	go func() { _ = c.Wait() }()
}
