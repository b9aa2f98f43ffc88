// Package jsonrpc is a JSON-RPC 2.0 peer over a line-delimited byte stream:
// one JSON object per line, requests and notifications in both directions.
// The agent host uses it on its stdin/stdout to talk to the SDK.
package jsonrpc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/wirelog"
)

// Handler answers one incoming request or notification. For a notification
// the result is discarded. Returning an *agentproto.Error or a *RemoteError
// selects the error response's code and data.
type Handler func(ctx context.Context, method string, params json.RawMessage) (any, error)

// MaxLine is the longest message a Conn reads, its newline included
// (agentproto.MaxMessageBytes). A longer line is skipped as it is read
// (never held whole) and answered as an invalid request, with a null ID.
const MaxLine = agentproto.MaxMessageBytes

// Conn is one peer of a connection.
type Conn struct {
	r       *bufio.Reader
	maxLine int
	w       io.Writer
	handler Handler
	onError func(error) // reports malformed input; never nil

	writeMu sync.Mutex
	wire    *wirelog.Log // nil: no debug wire log

	mu      sync.Mutex
	nextID  int64
	pending map[string]chan *message
	done    bool
}

// message is any JSON-RPC 2.0 message; which fields are set tells its kind.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *RemoteError    `json:"error,omitempty"`
}

// RemoteError is a JSON-RPC error object.
type RemoteError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *RemoteError) Error() string { return e.Message }

// AgentError decodes Data as agentproto.ErrorData (empty when absent).
func (e *RemoteError) AgentError() agentproto.ErrorData {
	var d agentproto.ErrorData
	_ = json.Unmarshal(e.Data, &d)
	return d
}

// ErrClosed is returned by Call when the connection ends before the answer.
var ErrClosed = errors.New("jsonrpc: connection closed")

// New returns a peer reading r and writing w. onError (may be nil) hears
// about malformed lines, which are otherwise skipped.
func New(r io.Reader, w io.Writer, h Handler, onError func(error)) *Conn {
	if onError == nil {
		onError = func(error) {}
	}
	return &Conn{r: bufio.NewReaderSize(r, 64<<10), maxLine: MaxLine, w: w, handler: h, onError: onError, pending: map[string]chan *message{}}
}

// LogWire makes c write every message it reads and writes to l
// (STRATOS_DEBUG_WIRE=1); nil logs nothing. Call it before Serve.
func (c *Conn) LogWire(l *wirelog.Log) *Conn {
	c.wire = l
	return c
}

// Serve reads messages until r ends (nil) or fails. Requests are handled
// concurrently; notifications are handled in order, on the reading
// goroutine, so they must be quick.
//
// The goroutine that reads a request handles it, and hands the reading on
// to a new goroutine first. So the request runs on the thread that was
// woken to read it, with its caches warm, instead of waking a second thread
// for it: on a machine of few cores that wake-up is what a fast request
// waits for, while the peer (the SDK's node process, for the agent host)
// finishes its own turn on the other core.
// The new reader is not on the request's path: nothing it will read can
// arrive before the answer it waits for, in the common case of one call
// at a time.
//
// When r ends, the context of every running handler is cancelled and every
// pending Call fails with ErrClosed; Serve returns after the handlers did.
func (c *Conn) Serve(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	var handlers sync.WaitGroup
	ended := make(chan error, 1)
	go c.read(ctx, &handlers, ended)
	result := <-ended
	cancel()
	c.failPending()
	handlers.Wait()
	return result
}

// read reads messages until a request, which it handles after starting
// another read to go on in its place, or until r ends or fails, which it
// sends on ended.
func (c *Conn) read(ctx context.Context, handlers *sync.WaitGroup, ended chan<- error) {
	for {
		line, tooLong, err := c.readLine()
		var req *message
		switch {
		case tooLong:
			c.onError(fmt.Errorf("a message over %d bytes skipped", c.maxLine))
			c.respond(nil, nil, &RemoteError{Code: agentproto.RPCInvalidRequest, Message: fmt.Sprintf("message over %d bytes", c.maxLine)})
		case len(line) > 0:
			req = c.dispatch(ctx, line)
		}
		if req != nil {
			// Added before the reading goes on, so before ended can be sent
			// and Serve wait for the handlers.
			handlers.Add(1)
		}
		if err != nil {
			if req != nil {
				go c.handle(ctx, req, handlers)
			}
			if errors.Is(err, io.EOF) {
				err = nil
			} else {
				err = fmt.Errorf("read: %w", err)
			}
			ended <- err
			return
		}
		if req != nil {
			go c.read(ctx, handlers, ended)
			c.handle(ctx, req, handlers)
			return
		}
	}
}

func (c *Conn) handle(ctx context.Context, req *message, handlers *sync.WaitGroup) {
	defer handlers.Done()
	result, err := c.handler(ctx, req.Method, req.Params)
	c.respond(req.ID, result, err)
}

// readLine returns the next line, or tooLong when it holds more than
// c.maxLine bytes; such a line is read to its end and dropped.
func (c *Conn) readLine() (line []byte, tooLong bool, err error) {
	for {
		chunk, err := c.r.ReadSlice('\n')
		if !tooLong && len(line)+len(chunk) > c.maxLine {
			tooLong, line = true, nil
		}
		if !tooLong {
			line = append(line, chunk...)
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, tooLong, err
		}
	}
}

// dispatch handles a notification or a response and returns a request,
// for the caller to handle.
func (c *Conn) dispatch(ctx context.Context, line []byte) *message {
	c.wire.Message(wirelog.In, line)
	var m message
	if err := json.Unmarshal(line, &m); err != nil {
		c.onError(fmt.Errorf("malformed message %.200q: %w", line, err))
		c.respond(nil, nil, &RemoteError{Code: agentproto.RPCParseError, Message: "parse error: " + err.Error()})
		return nil
	}
	switch {
	case m.Method != "" && len(m.ID) > 0:
		return &m
	case m.Method != "":
		if _, err := c.handler(ctx, m.Method, m.Params); err != nil {
			c.onError(fmt.Errorf("notification %s: %w", m.Method, err))
		}
	case len(m.ID) > 0:
		c.mu.Lock()
		ch := c.pending[string(m.ID)]
		delete(c.pending, string(m.ID))
		c.mu.Unlock()
		if ch == nil {
			c.onError(fmt.Errorf("response to unknown request id %s", m.ID))
			return nil
		}
		ch <- &m
	default:
		c.onError(fmt.Errorf("message is neither request, notification nor response: %.200q", line))
	}
	return nil
}

func (c *Conn) respond(id json.RawMessage, result any, err error) {
	if id == nil {
		id = json.RawMessage("null")
	}
	m := message{JSONRPC: "2.0", ID: id}
	if err != nil {
		m.Error = toRemote(err)
	} else {
		b, mErr := json.Marshal(result)
		if mErr != nil {
			m.Error = &RemoteError{Code: agentproto.RPCAgentError, Message: "encode result: " + mErr.Error()}
		} else {
			m.Result = b
		}
	}
	if wErr := c.write(&m); wErr != nil {
		c.onError(wErr)
	}
}

// toRemote turns a handler error into an error object.
func toRemote(err error) *RemoteError {
	// An agent error comes first: it may wrap the remote error it answers.
	var ae *agentproto.Error
	if !errors.As(err, &ae) {
		var re *RemoteError
		if errors.As(err, &re) {
			return re
		}
		ae = &agentproto.Error{Code: agentproto.CodeInternal, Message: err.Error()}
	}
	data, _ := json.Marshal(agentproto.ErrorData{Code: ae.Code, Details: ae.Details})
	return &RemoteError{Code: agentproto.RPCAgentError, Message: ae.Message, Data: data}
}

func (c *Conn) write(m *message) error {
	b, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("encode %s: %w", m.Method, err)
	}
	c.wire.Message(wirelog.Out, b)
	b = append(b, '\n')
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if _, err := c.w.Write(b); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}

// Call sends a request and waits for its response, decoding the result into
// result (if non-nil). An error response comes back as *RemoteError.
func (c *Conn) Call(ctx context.Context, method string, params, result any) error {
	c.mu.Lock()
	if c.done {
		c.mu.Unlock()
		return ErrClosed
	}
	c.nextID++
	id := json.RawMessage(strconv.FormatInt(c.nextID, 10))
	ch := make(chan *message, 1)
	c.pending[string(id)] = ch
	c.mu.Unlock()

	p, err := json.Marshal(params)
	if err != nil {
		c.forget(id)
		return fmt.Errorf("encode %s params: %w", method, err)
	}
	if err := c.write(&message{JSONRPC: "2.0", ID: id, Method: method, Params: p}); err != nil {
		c.forget(id)
		return err
	}
	select {
	case m := <-ch:
		if m == nil {
			return ErrClosed
		}
		if m.Error != nil {
			return m.Error
		}
		if result != nil && len(m.Result) > 0 {
			if err := json.Unmarshal(m.Result, result); err != nil {
				return fmt.Errorf("decode %s result: %w", method, err)
			}
		}
		return nil
	case <-ctx.Done():
		c.forget(id)
		return ctx.Err()
	}
}

func (c *Conn) forget(id json.RawMessage) {
	c.mu.Lock()
	delete(c.pending, string(id))
	c.mu.Unlock()
}

// Notify sends a notification.
func (c *Conn) Notify(method string, params any) error {
	p, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("encode %s params: %w", method, err)
	}
	return c.write(&message{JSONRPC: "2.0", Method: method, Params: p})
}

// failPending wakes every Call still waiting: no answer will come.
func (c *Conn) failPending() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.done = true
	for id, ch := range c.pending {
		ch <- nil
		delete(c.pending, id)
	}
}
