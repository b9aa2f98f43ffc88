package mcpserve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxMessage bounds one message from the client: the SDK's own bound.
const maxMessage = mcp.DefaultMaxLineLength

// stdioTransport is the server's stdio transport: the SDK's newline-delimited
// JSON over in and out, with two changes. The SDK ends the session at the
// first line that is not a JSON-RPC message, so lines are read here first:
// a line that is not JSON is answered with a parse error (-32700), one that
// is JSON but no JSON-RPC message (a batch among them: MCP has none since
// 2025-06-18) with an invalid request error (-32600), each with the id
// null unless the line's id could be read, and the session goes on. And
// the response to a request the client cancelled is not sent
// (see cancelledUnanswered).
type stdioTransport struct {
	in  io.Reader
	out io.Writer
	// max bounds a line (0: maxMessage).
	max int
}

func (t *stdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	out := &lockedWriter{w: t.out}
	in := &messageReader{src: t.in, r: bufio.NewReader(t.in), reply: out, max: t.max}
	if in.max == 0 {
		in.max = maxMessage
	}
	conn, err := (&mcp.IOTransport{Reader: in, Writer: out}).Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &cancelledUnanswered{Connection: conn, calls: map[jsonrpc.ID]bool{}}, nil
}

// lockedWriter writes each message in one piece, whether the SDK or the
// message reader writes it.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Close leaves the output open: it is the process's stdout.
func (l *lockedWriter) Close() error { return nil }

// messageReader passes on the client's lines that are JSON-RPC messages,
// each trimmed and ended by a newline as the SDK reads them, and answers
// the others itself.
type messageReader struct {
	src     io.Reader // closed by Close, to end a read under way
	r       *bufio.Reader
	reply   io.Writer
	max     int    // bounds a line
	pending []byte // the rest of the message being passed on
}

func (m *messageReader) Read(p []byte) (int, error) {
	for len(m.pending) == 0 {
		line, tooLong, err := m.line()
		if len(line) > 0 || tooLong {
			m.check(line, tooLong)
		}
		if err != nil && len(m.pending) == 0 {
			return 0, err
		}
	}
	n := copy(p, m.pending)
	m.pending = m.pending[n:]
	return n, nil
}

func (m *messageReader) Close() error {
	if c, ok := m.src.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// line reads the next line without its newline, trimmed. A line longer
// than m.max is read to its end but not kept (tooLong).
func (m *messageReader) line() (line []byte, tooLong bool, err error) {
	var buf []byte
	for {
		chunk, err := m.r.ReadSlice('\n')
		if !tooLong && len(buf)+len(chunk) > m.max+1 {
			tooLong, buf = true, nil
		}
		if !tooLong {
			buf = append(buf, chunk...)
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return bytes.TrimSpace(buf), tooLong, err
		}
	}
}

// check passes line on when it is a JSON-RPC message and answers it
// otherwise.
func (m *messageReader) check(line []byte, tooLong bool) {
	switch {
	case tooLong:
		m.answer(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: a message longer than %d bytes", m.max))
	case !json.Valid(line):
		m.answer(nil, jsonrpc.CodeParseError, "parse error: the line is not JSON")
	case line[0] == '[':
		m.answer(nil, jsonrpc.CodeInvalidRequest, "invalid request: batches are not supported; send one message per line")
	default:
		if _, err := jsonrpc.DecodeMessage(line); err != nil {
			m.answer(readableID(line), jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
			return
		}
		m.pending = append(line, '\n')
	}
}

// errorReply is the JSON-RPC error response to a line that is no message.
type errorReply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   replyError      `json:"error"`
}

type replyError struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
}

func (m *messageReader) answer(id json.RawMessage, code int64, message string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, err := json.Marshal(errorReply{JSONRPC: "2.0", ID: id, Error: replyError{Code: code, Message: message}})
	if err != nil {
		return // the fields above always encode
	}
	// A client that no longer reads ends the session through the SDK's
	// own writes; nothing to do here.
	_, _ = m.reply.Write(append(b, '\n'))
}

// readableID returns the id of a line that is a JSON object with a string
// or number id, else nil (JSON-RPC's null).
func readableID(line []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	var id any
	if json.Unmarshal(m.ID, &id) != nil {
		return nil
	}
	switch id.(type) {
	case string, float64:
		return m.ID
	}
	return nil
}

// cancelledUnanswered sends no response to a request the client cancelled
// with notifications/cancelled: MCP says the receiver should not answer
// it, while the SDK answers it with the cancellation's error. The
// notification still reaches the SDK, which cancels the request's work.
// calls holds the requests read and not answered yet, true once
// cancelled; a cancellation of anything else is ignored, so the map never
// outgrows the requests in flight.
type cancelledUnanswered struct {
	mcp.Connection

	mu    sync.Mutex
	calls map[jsonrpc.ID]bool
}

func (c *cancelledUnanswered) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if req, ok := msg.(*jsonrpc.Request); ok && err == nil {
		c.mu.Lock()
		defer c.mu.Unlock()
		switch {
		case req.IsCall():
			if _, dup := c.calls[req.ID]; !dup {
				c.calls[req.ID] = false
			}
		case req.Method == "notifications/cancelled":
			if id, ok := cancelledID(req.Params); ok {
				if _, inFlight := c.calls[id]; inFlight {
					c.calls[id] = true
				}
			}
		}
	}
	return msg, err
}

func (c *cancelledUnanswered) Write(ctx context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		cancelled := c.calls[resp.ID]
		delete(c.calls, resp.ID)
		c.mu.Unlock()
		if cancelled {
			return nil
		}
	}
	return c.Connection.Write(ctx, msg)
}

// cancelledID is the requestId of notifications/cancelled params.
func cancelledID(params json.RawMessage) (jsonrpc.ID, bool) {
	var p struct {
		RequestID any `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil || p.RequestID == nil {
		return jsonrpc.ID{}, false
	}
	id, err := jsonrpc.MakeID(p.RequestID)
	return id, err == nil
}
