package mcpclient

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// MaxMessageBytes bounds one protocol message from a server, on every
// transport, while it is read: a stdio line, a server-sent event, a JSON
// response body. The largest resource read (32 MiB, in base64) fits.
const MaxMessageBytes = 64 << 20

// CodeResourceTooLarge is the JSON-RPC error code of the answer Stratos
// puts in place of a resource read's response that outgrew its bound while
// it was being read (see readLimitTransport).
const CodeResourceTooLarge = -32099

// readLimitKey carries a resource read's byte limit to the HTTP transport.
type readLimitKey struct{}

// readBound is how many bytes the response to a read of at most limit
// bytes may take on the wire: text escaped as JSON takes at most six bytes
// a byte (\u00XX), base64 four per three; the rest is the envelope. A
// response over it holds more than limit bytes for sure; one under it is
// measured exactly once decoded (resourceContents).
func readBound(limit int) int {
	return min(6*limit+64<<10, MaxMessageBytes)
}

// readLimitTransport bounds what an HTTP server's responses make Stratos
// read: a response to a resource read (its context says the limit) at
// readBound, any other at MaxMessageBytes. A JSON response over its bound
// is not read further: the server's connection is dropped and an error
// answer for the request takes its place, so the session lives on. An
// event stream's events are bounded one by one the same way.
type readLimitTransport struct {
	next http.RoundTripper
}

func (t readLimitTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	bound := MaxMessageBytes
	if limit, ok := req.Context().Value(readLimitKey{}).(int); ok {
		bound = readBound(limit)
	}
	id := requestID(req)
	resp, err := t.next.RoundTrip(req)
	if err != nil || req.Method != http.MethodPost || id == nil || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	answer := tooLargeAnswer(id, bound)
	switch mediaType(resp.Header.Get("Content-Type")) {
	case "application/json":
		resp.Body = &boundedJSON{body: resp.Body, bound: bound, answer: answer}
	case "text/event-stream":
		resp.Body = &boundedEvents{body: resp.Body, src: bufio.NewReader(resp.Body), bound: bound,
			answer: append(append([]byte("event: message\ndata: "), answer...), "\n\n"...), lineStart: true}
	}
	return resp, nil
}

// requestID is the JSON-RPC ID of the request a POST carries (nil: a
// notification, a response, or a body Stratos cannot read again).
func requestID(req *http.Request) json.RawMessage {
	if req.Method != http.MethodPost || req.GetBody == nil {
		return nil
	}
	body, err := req.GetBody()
	if err != nil {
		return nil
	}
	defer body.Close()
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.NewDecoder(io.LimitReader(body, MaxMessageBytes)).Decode(&msg) != nil || msg.Method == "" || len(msg.ID) == 0 {
		return nil
	}
	return msg.ID
}

// tooLargeAnswer is the error answer to request id whose response
// outgrew bound.
func tooLargeAnswer(id json.RawMessage, bound int) []byte {
	answer, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: CodeResourceTooLarge, Message: fmt.Sprintf("the response is over %d bytes; Stratos stopped reading it", bound)}})
	return answer
}

func mediaType(header string) string {
	t, _, err := mime.ParseMediaType(header)
	if err != nil {
		return ""
	}
	return t
}

// boundedJSON reads a JSON response of at most bound bytes, or, past
// that, gives the error answer instead.
type boundedJSON struct {
	body   io.ReadCloser
	bound  int
	answer []byte
	out    *bytes.Reader
}

func (b *boundedJSON) Read(p []byte) (int, error) {
	if b.out == nil {
		data, err := io.ReadAll(io.LimitReader(b.body, int64(b.bound)+1))
		if err != nil {
			return 0, err
		}
		if len(data) > b.bound {
			_ = b.body.Close() // the rest is never read
			data = b.answer
		}
		b.out = bytes.NewReader(data)
	}
	return b.out.Read(p)
}

func (b *boundedJSON) Close() error { return b.body.Close() }

// boundedEvents passes a server-sent event stream on event by event; an
// event that grows past bound is dropped, the stream is ended and the
// error answer is the last event.
type boundedEvents struct {
	body      io.Closer
	src       *bufio.Reader
	bound     int
	answer    []byte
	event     bytes.Buffer // the event being read
	out       bytes.Buffer // complete events, ready
	lineStart bool
	err       error
}

func (b *boundedEvents) Read(p []byte) (int, error) {
	for b.out.Len() == 0 && b.err == nil {
		b.readLine()
	}
	if b.out.Len() > 0 {
		return b.out.Read(p)
	}
	return 0, b.err
}

// readLine reads one line, or as much of it as the buffer holds.
func (b *boundedEvents) readLine() {
	line, err := b.src.ReadSlice('\n')
	blank := b.lineStart && (string(line) == "\n" || string(line) == "\r\n")
	b.lineStart = err == nil
	b.event.Write(line)
	switch {
	case b.event.Len() > b.bound:
		_ = b.body.Close()
		b.event.Reset()
		b.out.Write(b.answer)
		b.err = io.EOF
	case blank:
		b.out.Write(b.event.Bytes())
		b.event.Reset()
	case err == bufio.ErrBufferFull:
	case err != nil:
		b.out.Write(b.event.Bytes())
		b.event.Reset()
		b.err = err
	}
}

func (b *boundedEvents) Close() error { return b.body.Close() }

// withReadLimit gives a resource read's limit to the HTTP transport.
func withReadLimit(ctx context.Context, limit int) context.Context {
	return context.WithValue(ctx, readLimitKey{}, limit)
}
