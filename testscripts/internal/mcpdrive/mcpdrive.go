// Package mcpdrive is the acceptance tests' MCP client: the Go SDK's
// client connected to a real `stratos mcp serve` (stdio, or --http on a
// free loopback port), making the tool calls a script names and printing
// each result as one JSON line.
//
//	mcpdrive [--legacy] [--http] [--parallel] [--tools-per-workflow]
//	         [--cancel-on PREFIX] [--end-session-on PREFIX] STEP...
//
// A STEP is `tools` (print the tool names), `wait-runs` (wait, with the
// session open, until `stratos runs` lists no running run) or
// `<tool>=<JSON arguments>`.
// Steps run in order, or all at once with --parallel (printed in the order
// given). --legacy negotiates the initialize-era protocol 2025-03-26
// instead of the newest. --cancel-on cancels a call once one of its
// progress notifications starts with PREFIX (an event type);
// --end-session-on ends the session there instead (over --http a DELETE
// of the session, sent at once),
// and the call is described as {"sessionEnded": true}. The first
// line is {"protocolVersion": …}; after the steps, {"toolsListChanged": n}.
package mcpdrive

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// legacyVersion is the initialize-era protocol version --legacy asks for.
const legacyVersion = "2025-03-26"

// callBound bounds every call: a broken server fails the script, it does
// not hang it.
const callBound = 3 * time.Minute

type options struct {
	legacy, http, parallel, perWorkflow bool
	cancelOn, endSessionOn              string
}

// Main runs the client and returns the exit code: 0 when every call got a
// result (isError results included), 1 otherwise.
func Main(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcpdrive", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.BoolVar(&o.legacy, "legacy", false, "negotiate protocol "+legacyVersion)
	fs.BoolVar(&o.http, "http", false, "serve streamable HTTP on a loopback port")
	fs.BoolVar(&o.parallel, "parallel", false, "make the calls at once")
	fs.BoolVar(&o.perWorkflow, "tools-per-workflow", false, "pass --tools-per-workflow")
	fs.StringVar(&o.cancelOn, "cancel-on", "", "cancel a call at its first progress message with this prefix")
	fs.StringVar(&o.endSessionOn, "end-session-on", "", "end the session at a call's first progress message with this prefix")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if err := drive(o, fs.Args(), stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "mcpdrive: %v\n", err)
		return 1
	}
	return 0
}

// driver is one client session and what it has seen.
type driver struct {
	o        options
	progress sync.Map // progress token → func(message string)
	changed  atomic.Int64
	out      io.Writer
	mu       sync.Mutex
	// endSession ends the session as the client would: over --http a
	// DELETE of its Mcp-Session-Id (the SDK's client sends it only once its
	// calls have returned), over stdio closing the server's stdin.
	endSession func(cs *mcp.ClientSession) error
}

func drive(o options, steps []string, stdout, stderr io.Writer) error {
	d := &driver{o: o, out: stdout}
	ctx, cancel := context.WithTimeout(context.Background(), callBound)
	defer cancel()
	cs, stop, err := d.connect(ctx, stderr)
	if err != nil {
		return err
	}
	defer stop()
	d.print(map[string]any{"protocolVersion": cs.InitializeResult().ProtocolVersion})
	results := make([]map[string]any, len(steps))
	var wg sync.WaitGroup
	for i, step := range steps {
		run := func() { results[i] = d.step(ctx, cs, i, step) }
		if o.parallel {
			wg.Go(run)
		} else {
			run()
			d.print(results[i])
		}
	}
	wg.Wait()
	if o.parallel {
		for _, r := range results {
			d.print(r)
		}
	}
	d.print(map[string]any{"toolsListChanged": d.changed.Load()})
	for _, r := range results {
		if r["failed"] != nil {
			return fmt.Errorf("a call failed: %v", r["failed"])
		}
	}
	return nil
}

func (d *driver) connect(ctx context.Context, stderr io.Writer) (*mcp.ClientSession, func(), error) {
	c := mcp.NewClient(&mcp.Implementation{Name: "mcpdrive", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			if f, ok := d.progress.Load(req.Params.ProgressToken); ok {
				f.(func(string))(req.Params.Message)
			}
		},
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { d.changed.Add(1) },
	})
	opts := &mcp.ClientSessionOptions{}
	if d.o.legacy {
		opts.ProtocolVersion = legacyVersion
	}
	args := []string{"mcp", "serve"}
	if d.o.perWorkflow {
		args = append(args, "--tools-per-workflow")
	}
	if !d.o.http {
		cmd := exec.Command("stratos", args...)
		cmd.Stderr = stderr
		cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 40 * time.Second}, opts)
		if err != nil {
			return nil, nil, fmt.Errorf("connect over stdio: %w", err)
		}
		d.endSession = func(cs *mcp.ClientSession) error { return cs.Close() }
		return cs, func() { cs.Close() }, nil
	}
	return d.connectHTTP(ctx, c, opts, append(args, "--http", "127.0.0.1:0"), stderr)
}

var (
	listening = regexp.MustCompile(`listening on (http://\S+)`)
	// bearerLine is the server's second line: the token it made, or the
	// variable it took the token from.
	bearerLine = regexp.MustCompile(`clients send "Authorization: Bearer (\$STRATOS_MCP_TOKEN|[0-9a-f]+)"`)
)

// bearerTransport sends the server's token with every request.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// connectHTTP starts the server on a free loopback port, reads the address
// it prints on stderr, and connects to it.
func (d *driver) connectHTTP(ctx context.Context, c *mcp.Client, opts *mcp.ClientSessionOptions, args []string, stderr io.Writer) (*mcp.ClientSession, func(), error) {
	cmd := exec.Command("stratos", args...)
	pipe, err := cmd.StderrPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	stopServer := func() { _ = cmd.Process.Signal(os.Interrupt); _ = cmd.Wait() }
	sc := bufio.NewScanner(pipe)
	var url, token string
	for (url == "" || token == "") && sc.Scan() {
		fmt.Fprintln(stderr, sc.Text())
		if m := listening.FindStringSubmatch(sc.Text()); m != nil {
			url = m[1]
		}
		if m := bearerLine.FindStringSubmatch(sc.Text()); m != nil {
			token = m[1]
			if token == "$STRATOS_MCP_TOKEN" {
				token = os.Getenv("STRATOS_MCP_TOKEN")
			}
		}
	}
	if url == "" || token == "" {
		stopServer()
		return nil, nil, fmt.Errorf("stratos %s printed no address and token", strings.Join(args, " "))
	}
	go func() { _, _ = io.Copy(stderr, pipe) }()
	client := &http.Client{Transport: bearerTransport{token: token}}
	d.endSession = func(cs *mcp.ClientSession) error { return deleteSession(ctx, client, url, cs) }
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: client}, opts)
	if err != nil {
		stopServer()
		return nil, nil, fmt.Errorf("connect to %s: %w", url, err)
	}
	return cs, func() { cs.Close(); stopServer() }, nil
}

// deleteSession ends the HTTP session with a DELETE, as a client that
// leaves does.
func deleteSession(ctx context.Context, client *http.Client, url string, cs *mcp.ClientSession) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Mcp-Session-Id", cs.ID())
	req.Header.Set("MCP-Protocol-Version", cs.InitializeResult().ProtocolVersion)
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent && resp.StatusCode != http.StatusOK {
		return fmt.Errorf("DELETE: HTTP %d", resp.StatusCode)
	}
	return nil
}

// step makes one call and describes its result.
func (d *driver) step(ctx context.Context, cs *mcp.ClientSession, i int, step string) map[string]any {
	res := map[string]any{"step": i}
	if step == "tools" {
		var names []string
		for t, err := range cs.Tools(ctx, nil) {
			if err != nil {
				res["failed"] = err.Error()
				return res
			}
			names = append(names, t.Name)
		}
		res["tools"] = names
		return res
	}
	if step == "wait-runs" {
		if err := waitRuns(ctx); err != nil {
			res["failed"] = err.Error()
		}
		res["runsRunning"] = 0
		return res
	}
	name, args, ok := strings.Cut(step, "=")
	if !ok {
		res["failed"] = fmt.Sprintf("step %q is neither tools nor tool=JSON", step)
		return res
	}
	res["tool"] = name
	callCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	token := fmt.Sprintf("step-%d", i)
	var seen atomic.Int64
	var ended sync.Once
	var ending atomic.Bool
	endedSession := make(chan struct{})
	d.progress.Store(token, func(msg string) {
		seen.Add(1)
		if d.o.cancelOn != "" && strings.HasPrefix(msg, d.o.cancelOn) {
			cancel()
		}
		if d.o.endSessionOn != "" && strings.HasPrefix(msg, d.o.endSessionOn) {
			// Not on the notification's own goroutine: Close waits for it.
			ended.Do(func() {
				ending.Store(true)
				go func() {
					if err := d.endSession(cs); err != nil {
						fmt.Fprintf(os.Stderr, "mcpdrive: end the session: %v\n", err)
					}
					close(endedSession)
				}()
			})
		}
	})
	defer d.progress.Delete(token)
	params := &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)}
	params.SetProgressToken(token)
	r, err := cs.CallTool(callCtx, params)
	res["progress"] = seen.Load()
	sessionEnded := ending.Load()
	if sessionEnded {
		<-endedSession
	}
	switch {
	case sessionEnded:
		res["sessionEnded"] = true
	case err != nil && callCtx.Err() != nil && ctx.Err() == nil:
		res["cancelled"] = true
	case err != nil:
		res["failed"] = err.Error()
	default:
		describe(res, r)
	}
	return res
}

// describe adds the result: structured content, or for isError results the
// error envelope the text carries.
func describe(res map[string]any, r *mcp.CallToolResult) {
	res["isError"] = r.IsError
	if r.StructuredContent != nil {
		res["structured"] = r.StructuredContent
	}
	for _, c := range r.Content {
		if t, ok := c.(*mcp.TextContent); ok && r.IsError {
			var env map[string]any
			if json.Unmarshal([]byte(t.Text), &env) == nil {
				res["error"] = env["error"]
			} else {
				res["error"] = t.Text
			}
		}
	}
}

func (d *driver) print(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte(fmt.Sprintf(`{"failed":%q}`, err.Error()))
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	fmt.Fprintf(d.out, "%s\n", b)
}

// waitRuns polls `stratos runs list --status running` until it is empty.
func waitRuns(ctx context.Context) error {
	for {
		out, err := exec.CommandContext(ctx, "stratos", "runs", "list", "--status", "running", "--json").Output()
		if err != nil {
			return fmt.Errorf("stratos runs list: %w", err)
		}
		var l struct {
			Runs []json.RawMessage `json:"runs"`
		}
		if err := json.Unmarshal(out, &l); err != nil {
			return fmt.Errorf("stratos runs list: %w", err)
		}
		if len(l.Runs) == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("runs still running: %s", out)
		case <-time.After(200 * time.Millisecond):
		}
	}
}
