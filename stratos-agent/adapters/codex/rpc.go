package codex

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/stratos-agent/adapter/process"
)

// errExited is returned for requests the app-server can no longer answer.
var errExited = errors.New("the codex app-server has exited")

// rpcError is a JSON-RPC error the app-server answered with (0.171 uses
// -32600 for nearly everything, so the message is what tells them apart).
type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("%s (code %d)", e.Message, e.Code) }

// message is one frame from the app-server. Its shape says what it is: a
// method with an id is a request Stratos must answer, a method without an
// id a notification, an id without a method the answer to a request.
type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *rpcError       `json:"error,omitempty"`
}

// rpcHandlers receive what the reader goroutine decodes, in stdout order.
type rpcHandlers struct {
	// notify gets every notification; it must not block for long.
	notify func(method string, params json.RawMessage)
	// request gets every server → client request and returns the result
	// (or an error). It runs on a goroutine of its own, so it may block.
	request func(method string, params json.RawMessage) (any, error)
}

// conn is one app-server process spoken to over JSON-RPC on stdio, one
// JSON object per line.
type conn struct {
	p   *process.Process
	log hclog.Logger
	h   rpcHandlers

	mu      sync.Mutex
	seq     int
	pending map[string]chan message
}

// dial starts the app-server described by spec and reads its frames.
func dial(spec process.Spec, h rpcHandlers) (*conn, error) {
	c := &conn{log: spec.Log, h: h, pending: map[string]chan message{}}
	spec.Stdout = c.onLine
	p, err := process.Start(spec)
	if err != nil {
		return nil, err
	}
	c.p = p
	go func() {
		<-p.Exited()
		c.mu.Lock()
		for id, ch := range c.pending {
			close(ch)
			delete(c.pending, id)
		}
		c.mu.Unlock()
	}()
	return c, nil
}

func (c *conn) exited() <-chan struct{} { return c.p.Exited() }

func (c *conn) onLine(line []byte) {
	if line[0] != '{' {
		c.log.Debug("codex stdout: ignoring a non-JSON line", "line", process.Truncate(string(line), 200))
		return
	}
	var m message
	if err := json.Unmarshal(line, &m); err != nil {
		c.log.Debug("codex stdout: undecodable frame", "error", err, "line", process.Truncate(string(line), 200))
		return
	}
	switch {
	case m.Method != "" && len(m.ID) > 0:
		go c.answer(m)
	case m.Method != "":
		c.h.notify(m.Method, m.Params)
	case len(m.ID) > 0:
		c.resolve(m)
	}
}

// answer runs the request handler and writes its answer. Every server
// request must be answered, or the turn waiting on it hangs.
func (c *conn) answer(m message) {
	res, err := c.h.request(m.Method, m.Params)
	frame := map[string]any{"id": m.ID}
	if err != nil {
		frame["error"] = map[string]any{"code": -32601, "message": err.Error()}
	} else {
		if res == nil {
			res = struct{}{}
		}
		frame["result"] = res
	}
	if werr := c.write(frame); werr != nil {
		c.log.Debug("answering a codex request failed", "method", m.Method, "error", werr)
	}
}

func (c *conn) resolve(m message) {
	id := string(m.ID)
	c.mu.Lock()
	ch := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if ch != nil {
		ch <- m
	}
}

func (c *conn) write(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := c.p.WriteLine(b); err != nil {
		if errors.Is(err, process.ErrStdinClosed) {
			return errExited
		}
		return err
	}
	return nil
}

// call sends a request and waits for its answer, decoding the result into
// out (when not nil).
func (c *conn) call(ctx context.Context, method string, params, out any) error {
	c.mu.Lock()
	c.seq++
	n := c.seq
	id := strconv.Itoa(n)
	ch := make(chan message, 1)
	select {
	case <-c.p.Exited():
		c.mu.Unlock()
		return errExited
	default:
		c.pending[id] = ch
	}
	c.mu.Unlock()
	if err := c.write(map[string]any{"id": n, "method": method, "params": params}); err != nil {
		c.forget(id)
		return err
	}
	select {
	case m, ok := <-ch:
		if !ok {
			return errExited
		}
		if m.Error != nil {
			return m.Error
		}
		if out != nil && len(m.Result) > 0 {
			if err := json.Unmarshal(m.Result, out); err != nil {
				return fmt.Errorf("decode the answer to %s: %w", method, err)
			}
		}
		return nil
	case <-ctx.Done():
		c.forget(id)
		return ctx.Err()
	}
}

func (c *conn) forget(id string) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// notifyServer sends a notification (no answer).
func (c *conn) notifyServer(method string) error {
	return c.write(map[string]any{"method": method})
}
