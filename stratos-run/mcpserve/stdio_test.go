package mcpserve

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioSession serves s over the stdio transport on pipes and returns a
// function that sends a line and one that reads the server's next line.
func stdioSession(t *testing.T, s *Server, maxLine int) (send func(string), next func() string) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = s.MCP().Run(ctx, &stdioTransport{in: inR, out: outW, max: maxLine})
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close(); cancel(); <-done })
	lines := bufio.NewScanner(outR)
	send = func(line string) {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	next = func() string {
		if !lines.Scan() {
			t.Fatalf("the server closed its output: %v", lines.Err())
		}
		return lines.Text()
	}
	return send, next
}

// Lines that are not JSON-RPC messages are answered, in order, and the
// session goes on (the SDK's own transport ends it at the first).
func TestStdioAnswersLinesThatAreNoMessages(t *testing.T) {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	send, next := stdioSession(t, s, 0)
	for _, c := range []struct{ line, want string }{
		{"not json", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: the line is not JSON"}}`},
		{`{"jsonrpc":"2.0","id":1,`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: the line is not JSON"}}`},
		{"[]", `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: batches are not supported; send one message per line"}}`},
		{`[{"jsonrpc":"2.0","id":2,"method":"ping"}]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: batches are not supported; send one message per line"}}`},
		{`"ping"`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,`},
		{`{"jsonrpc":"1.0","id":"a","method":"ping"}`, `{"jsonrpc":"2.0","id":"a","error":{"code":-32600,`},
		{`  {"jsonrpc":"2.0","id":3,"method":"ping"}  `, `{"jsonrpc":"2.0","id":3,"result":{}}`},
	} {
		send(c.line)
		if got := next(); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: got %s, want %s…", c.line, got, c.want)
		}
	}
}

func TestStdioAnswersAnOverlongLineAndGoesOn(t *testing.T) {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	send, next := stdioSession(t, s, 100)
	send(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 10000) + `"}}`)
	if got := next(); got != `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: a message longer than 100 bytes"}}` {
		t.Fatalf("got %.200s", got)
	}
	send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	if got := next(); got != `{"jsonrpc":"2.0","id":2,"result":{}}` {
		t.Fatalf("got %s", got)
	}
}

// fakeConn replays messages and records what is written.
type fakeConn struct {
	mcp.Connection
	in      []jsonrpc.Message
	written []jsonrpc.Message
}

func (f *fakeConn) Read(context.Context) (jsonrpc.Message, error) {
	if len(f.in) == 0 {
		return nil, io.EOF
	}
	m := f.in[0]
	f.in = f.in[1:]
	return m, nil
}

func (f *fakeConn) Write(_ context.Context, m jsonrpc.Message) error {
	f.written = append(f.written, m)
	return nil
}

func id(t *testing.T, v any) jsonrpc.ID {
	t.Helper()
	i, err := jsonrpc.MakeID(v)
	if err != nil {
		t.Fatal(err)
	}
	return i
}

// The response to a request the client cancelled is not sent; other
// responses are, the cancellation itself reaches the SDK, and a
// cancellation of a request not in flight is forgotten.
func TestCancelledRequestGetsNoResponse(t *testing.T) {
	cancel := func(requestID any) *jsonrpc.Request {
		p, _ := json.Marshal(map[string]any{"requestId": requestID})
		return &jsonrpc.Request{Method: "notifications/cancelled", Params: p}
	}
	inner := &fakeConn{in: []jsonrpc.Message{
		&jsonrpc.Request{ID: id(t, float64(5)), Method: "tools/call"},
		&jsonrpc.Request{ID: id(t, "six"), Method: "tools/call"},
		cancel(5),
		cancel("never-sent"),
	}}
	c := &cancelledUnanswered{Connection: inner, calls: map[jsonrpc.ID]bool{}}
	ctx := context.Background()
	for range 4 {
		if _, err := c.Read(ctx); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range []*jsonrpc.Response{{ID: id(t, float64(5))}, {ID: id(t, "six")}} {
		if err := c.Write(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if len(inner.written) != 1 || inner.written[0].(*jsonrpc.Response).ID != id(t, "six") {
		t.Fatalf("written: %+v, want the response to six only", inner.written)
	}
	if len(c.calls) != 0 {
		t.Fatalf("calls left: %v", c.calls)
	}
}

// Over streamable HTTP a malformed body is refused (400) and the session
// goes on: each message is its own request.
func TestHTTPRefusesMalformedBodiesAndGoesOn(t *testing.T) {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: httpHandler(s)}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close() })
	url := "http://" + ln.Addr().String() + "/"
	post := func(session, body string) *http.Response {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	init := post("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	session := init.Header.Get("Mcp-Session-Id")
	if session == "" {
		t.Fatalf("initialize: %s, no session", init.Status)
	}
	post(session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for _, body := range []string{"not json", `{"jsonrpc":"2.0","id":2,`, "[]", `{"jsonrpc":"1.0","id":3,"method":"ping"}`} {
		if resp := post(session, body); resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %s, want 400", body, resp.Status)
		}
	}
	resp := post(session, `{"jsonrpc":"2.0","id":4,"method":"ping"}`)
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(data), `"id":4,"result":{}`) {
		t.Fatalf("ping after the malformed bodies: %s %s", resp.Status, data)
	}
}
