package acp

import (
	"bytes"
	"context"
	"errors"
	"io"

	"github.com/stratoscli/stratos/stratos-agent/adapter/process"
	"github.com/stratoscli/stratos/stratos-agent/jsonrpc"
)

// conn is one agent process spoken to over ACP. The kit's process
// supervision reads the agent's stdout line by line; each line is handed
// to the project's JSON-RPC peer through a pipe, so the peer's framing,
// line bound and dispatch are the ones the agent host uses with the SDK.
type conn struct {
	p      *process.Process
	rpc    *jsonrpc.Conn
	lines  *io.PipeWriter
	served chan struct{} // closed when the peer stopped reading
}

// dial starts the agent described by spec and serves its messages with h.
// The peer stops when the process exits; pending calls then fail with
// jsonrpc.ErrClosed.
func dial(spec process.Spec, h jsonrpc.Handler, onError func(error)) (*conn, error) {
	pr, pw := io.Pipe()
	c := &conn{lines: pw, served: make(chan struct{})}
	spec.Stdout = c.onLine
	p, err := process.Start(spec)
	if err != nil {
		_ = pw.Close()
		return nil, err
	}
	c.p = p
	c.rpc = jsonrpc.New(pr, stdinWriter{p}, h, onError)
	go func() {
		defer close(c.served)
		_ = c.rpc.Serve(context.Background())
	}()
	go func() {
		<-p.Exited()
		_ = pw.Close()
	}()
	return c, nil
}

// onLine passes one stdout line to the peer. The peer reads at once and
// handles notifications quickly, so the reader goroutine is not held up;
// a line that is not JSON (a stray log line) is dropped here.
func (c *conn) onLine(line []byte) {
	if len(line) == 0 || line[0] != '{' {
		return
	}
	b := make([]byte, 0, len(line)+1)
	b = append(append(b, line...), '\n')
	_, _ = c.lines.Write(b)
}

// call sends a request and waits for its answer; a process that exits
// first, or before the request could be written, answers with its exit
// error.
func (c *conn) call(ctx context.Context, method string, params, result any) error {
	err := c.rpc.Call(ctx, method, params, result)
	if errors.Is(err, jsonrpc.ErrClosed) || errors.Is(err, process.ErrStdinClosed) {
		return &exitedError{err: c.p.ExitError()}
	}
	return err
}

func (c *conn) notify(method string, params any) error { return c.rpc.Notify(method, params) }

// exitedError is the answer to a call the agent exited before answering.
type exitedError struct{ err error }

func (e *exitedError) Error() string {
	if e.err == nil {
		return "the agent exited"
	}
	return "the agent exited: " + e.err.Error()
}

func (e *exitedError) Unwrap() error { return e.err }

// stdinWriter writes the peer's messages to the agent's stdin, one line
// per Write (the peer writes each message whole, newline included).
type stdinWriter struct{ p *process.Process }

func (w stdinWriter) Write(b []byte) (int, error) {
	if err := w.p.WriteLine(bytes.TrimSuffix(b, []byte("\n"))); err != nil {
		return 0, err
	}
	return len(b), nil
}
