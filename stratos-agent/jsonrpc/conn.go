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
// concurrently, each in its own goroutine; notifications are handled in
// order, on the reading goroutine, so they must be quick.
//
// When r ends, the context of every running handler is cancelled and every
// pending Call fails with ErrClosed; Serve returns after the handlers did.
func (c *Conn) Serve(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	var result error
	for {
		line, tooLong, err := c.readLine()
		switch {
		case tooLong:
			c.onError(fmt.Errorf("a message over %d bytes skipped", c.maxLine))
			c.respond(nil, nil, &RemoteError{Code: agentproto.RPCInvalidRequest, Message: fmt.Sprintf("message over %d bytes", c.maxLine)})
		case len(line) > 0:
			c.dispatch(ctx, line, &wg)
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				result = fmt.Errorf("read: %w", err)
			}
			break
		}
	}
	cancel()
	c.failPending()
	wg.Wait()
	return result
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

func (c *Conn) dispatch(ctx context.Context, line []byte, wg *sync.WaitGroup) {
	c.wire.Message(wirelog.In, line)
	var m message
	if err := json.Unmarshal(line, &m); err != nil {
		c.onError(fmt.Errorf("malformed message %.200q: %w", line, err))
		c.respond(nil, nil, &RemoteError{Code: agentproto.RPCParseError, Message: "parse error: " + err.Error()})
		return
	}
	switch {
	case m.Method != "" && len(m.ID) > 0:
		wg.Add(1)
		go func() {
			defer wg.Done()
			result, err := c.handler(ctx, m.Method, m.Params)
			c.respond(m.ID, result, err)
		}()
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
			return
		}
		ch <- &m
	default:
		c.onError(fmt.Errorf("message is neither request, notification nor response: %.200q", line))
	}
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
