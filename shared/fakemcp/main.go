package fakemcp

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/atomicfile"
	"github.com/stratoscli/stratos/shared/fakeoauth"
)

// Main runs the server as a command (stratos-fakemcp in the acceptance
// tests):
//
//	stratos-fakemcp [--legacy] [--links] [--elicit] [--sample] [--notifications] [--name N] [--extra-tools-file F] [--pid-file P] [--require-env V]   # stdio
//	stratos-fakemcp --http --url-file F [--legacy] [--name N] [--oauth [--token-lifetime D] [--refreshed-lifetime D] [--no-refresh] [--no-registration] [--oauth-log F]]
//	stratos-fakemcp --hang-initialize [--pid-file P]
//	stratos-fakemcp --exit-at-start STATUS [--stderr-lines N]
//
// With --http it listens on a free 127.0.0.1 port and writes its URL to F
// (atomically, once listening) so a script can wait for it.
// --hang-initialize is a wedged stdio server: it declines server/discover
// and never answers initialize, nor anything after it; only SIGKILL ends
// it. --exit-at-start is a server that cannot start: it writes N lines and
// then its reason on stderr and exits with STATUS.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("stratos-fakemcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	legacy := fs.Bool("legacy", false, "speak only the initialize-era protocol")
	name := fs.String("name", "", "implementation name")
	links := fs.Bool("links", false, "add the open-issue tool, whose results link to resources, and the binary resource "+LogoURI)
	elicit := fs.Bool("elicit", false, "add the release tool, which asks its client for a form (elicitation)")
	sample := fs.Bool("sample", false, "add the summarize tool, which asks its client's model for a summary (sampling)")
	notifications := fs.Bool("notifications", false, "add the log, roots, touch and add-note tools and the subscribable resource "+CounterURI)
	useHTTP := fs.Bool("http", false, "serve streamable HTTP on 127.0.0.1 instead of stdio")
	urlFile := fs.String("url-file", "", "with --http: file to write the server URL to")
	extraFile := fs.String("extra-tools-file", "", "file naming extra echo tools, one a line (absent: none)")
	pidFile := fs.String("pid-file", "", "file to write the process ID to")
	requireEnv := fs.String("require-env", "", "exit 1 unless this environment variable is set and not empty (a credential the server needs)")
	useOAuth := fs.Bool("oauth", false, "with --http: require OAuth bearer tokens from the built-in authorization server (shared/fakeoauth)")
	var oauth fakeoauth.Options
	fs.DurationVar(&oauth.TokenLifetime, "token-lifetime", time.Hour, "with --oauth: lifetime of tokens issued at login")
	fs.DurationVar(&oauth.RefreshedLifetime, "refreshed-lifetime", 0, "with --oauth: lifetime of refreshed tokens (0: --token-lifetime)")
	fs.BoolVar(&oauth.NoRefresh, "no-refresh", false, "with --oauth: issue no refresh tokens")
	fs.BoolVar(&oauth.NoRegistration, "no-registration", false, "with --oauth: offer no dynamic client registration")
	oauthLog := fs.String("oauth-log", "", "with --oauth: file to append a line per request to")
	hang := fs.Bool("hang-initialize", false, "decline server/discover, never answer initialize, ignore SIGTERM and the end of stdin")
	exitStatus := fs.Int("exit-at-start", -1, "exit with this status at start, after writing to stderr")
	stderrLines := fs.Int("stderr-lines", 0, "with --exit-at-start: lines to write on stderr before the reason")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *requireEnv != "" && os.Getenv(*requireEnv) == "" {
		fmt.Fprintf(stderr, "stratos-fakemcp: %s is not set\n", *requireEnv)
		return 1
	}
	if *exitStatus >= 0 {
		return exitAtStart(stderr, *exitStatus, *stderrLines)
	}
	o := Options{Name: *name, Legacy: *legacy, Links: *links, Elicit: *elicit, Sample: *sample, Notifications: *notifications}
	if *extraFile != "" {
		if data, err := os.ReadFile(*extraFile); err == nil {
			o.ExtraTools = strings.Fields(string(data))
		}
	}
	if *pidFile != "" {
		if err := atomicfile.WriteFile(*pidFile, []byte(strconv.Itoa(os.Getpid())+"\n"), atomicfile.Private); err != nil {
			fmt.Fprintln(stderr, "stratos-fakemcp:", err)
			return 1
		}
	}
	if *hang {
		return hangInitialize(stdin, stdout)
	}
	if *useOAuth {
		if *oauthLog != "" {
			f, err := os.OpenFile(*oauthLog, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
			if err != nil {
				fmt.Fprintln(stderr, "stratos-fakemcp:", err)
				return 1
			}
			defer f.Close()
			oauth.Log = f
		}
		o.OAuth = &oauth
	}
	var err error
	if *useHTTP {
		err = serveHTTP(ctx, o, *urlFile)
	} else {
		err = NewServer(o).Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout}})
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "stratos-fakemcp:", err)
		return 1
	}
	return 0
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

func serveHTTP(ctx context.Context, o Options, urlFile string) error {
	if urlFile == "" {
		return errors.New("--http needs --url-file")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	url := Serve(ctx, ln, o)
	if err := atomicfile.WriteFile(urlFile, []byte(url+"\n"), atomicfile.Private); err != nil {
		return err
	}
	<-ctx.Done()
	return nil
}

// Serve serves the test server as streamable HTTP on ln until ctx ends and
// returns its URL. The modern protocol needs no HTTP session (stateless
// handler); a legacy server keeps initialize-era sessions. With o.OAuth the
// same origin is also the authorization server, and /mcp wants a bearer.
func Serve(ctx context.Context, ln net.Listener, o Options) string {
	server := NewServer(o)
	var handler http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{Stateless: !o.Legacy})
	origin := "http://" + ln.Addr().String()
	if o.OAuth != nil {
		mux := http.NewServeMux()
		fakeoauth.New(origin, *o.OAuth).Mount(mux, "/mcp", handler)
		handler = mux
	}
	srv := &http.Server{Handler: handler}
	go func() { _ = srv.Serve(ln) }()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	return origin + "/mcp"
}
