package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
)

// FuzzServe feeds a peer arbitrary bytes as its input stream, with a
// handler that echoes its params (and fails for the method "fail"). It
// checks that Serve ends at the end of the input, that every line it
// writes is one JSON-RPC 2.0 response (jsonrpc, id, and exactly one of
// result and error, the error with a code and a message), that every
// request line is answered exactly once under its own id, that a line that
// is not JSON gets a parse error, and that nothing else is answered.
func FuzzServe(f *testing.F) {
	f.Add("not json\n" +
		`{"jsonrpc":"2.0","id":1,"method":"fail"}` + "\n" +
		`{"jsonrpc":"2.0","method":"note","params":{"x":1}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"echo","params":{"x":2}}` + "\n")
	f.Add(`{"jsonrpc":"2.0","id":"a","method":"execute","params":{"agentId":"x","prompt":"hi"}}`)
	f.Add("\n\n[]\n{}\nnull\n" + `{"id":null,"method":"m"}` + "\n" + `{"id":7,"result":{}}` + "\n")
	f.Add(`{"jsonrpc":"2.0","id":{"nested":[1,2]},"method":"echo","params":[1,"two",null]}` + "\r\n")
	f.Add(`{"jsonrpc":"2.0","ID":3,"METHOD":"echo"}` + "\n" + `{"jsonrpc":"2.0","id":4,"method":"echo"} {"trailing":1}`)
	f.Fuzz(func(t *testing.T, input string) {
		h := func(_ context.Context, method string, params json.RawMessage) (any, error) {
			if method == "fail" {
				return nil, agentproto.Errorf(agentproto.CodeExecution, "failed as asked")
			}
			return params, nil
		}
		var out lockedBuffer
		c := New(strings.NewReader(input), &out, h, nil)
		if err := c.Serve(context.Background()); err != nil {
			t.Fatalf("Serve: %v", err)
		}
		want := expectedAnswers(input)
		got := map[string]int{}
		parseErrors := 0
		for _, line := range strings.SplitAfter(out.String(), "\n") {
			if line == "" {
				continue
			}
			id, errCode := checkResponse(t, line)
			if errCode == agentproto.RPCParseError && id == "null" {
				parseErrors++
				continue
			}
			got[id]++
		}
		for id, n := range want.requests {
			if got[id] != n && id != "null" {
				t.Errorf("request id %s answered %d times, want %d", id, got[id], n)
			}
		}
		for id, n := range got {
			if id != "null" && want.requests[id] == 0 {
				t.Errorf("answer to id %s (%d times), which no request had", id, n)
			}
		}
		if parseErrors < want.notJSON || parseErrors+got["null"] > want.notJSON+want.odd+want.requests["null"] {
			t.Errorf("%d parse errors and %d other answers with id null; want one parse error per line that is not JSON (%d), at most one answer per other line that is no request (%d) and one per request with id null (%d)",
				parseErrors, got["null"], want.notJSON, want.odd, want.requests["null"])
		}
	})
}

// answers is what a peer must write for an input: a count of requests
// per id (compact JSON), the number of lines that are not JSON (each gets
// a parse error) and of the other lines that are no request (which may get
// an error with a null id).
type answers struct {
	requests     map[string]int
	notJSON, odd int
}

// wireMessage is a JSON-RPC message as the peer decodes one.
type wireMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *RemoteError    `json:"error"`
}

func expectedAnswers(input string) answers {
	a := answers{requests: map[string]int{}}
	for _, line := range strings.SplitAfter(input, "\n") {
		if line == "" {
			continue
		}
		var m wireMessage
		switch {
		case !json.Valid([]byte(line)):
			a.notJSON++
		case json.Unmarshal([]byte(line), &m) == nil && m.Method != "" && len(m.ID) > 0:
			a.requests[compactJSON(m.ID)]++
		default:
			a.odd++
		}
	}
	return a
}

// checkResponse fails unless line is one JSON-RPC 2.0 response; it
// returns the response's id (compact JSON) and its error code (0 for a
// result).
func checkResponse(t *testing.T, line string) (id string, errCode int) {
	t.Helper()
	if !strings.HasSuffix(line, "\n") || strings.Count(line, "\n") != 1 {
		t.Fatalf("response %q is not one line", line)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal([]byte(line), &fields); err != nil {
		t.Fatalf("response %q is not a JSON object: %v", line, err)
	}
	if string(fields["jsonrpc"]) != `"2.0"` {
		t.Fatalf("response %q: jsonrpc is not \"2.0\"", line)
	}
	rawID, hasID := fields["id"]
	result, hasResult := fields["result"]
	rawErr, hasErr := fields["error"]
	if !hasID || hasResult == hasErr || len(fields) != 3 {
		t.Fatalf("response %q: want jsonrpc, id and exactly one of result and error", line)
	}
	if hasResult {
		if !json.Valid(result) {
			t.Fatalf("response %q: result is not JSON", line)
		}
		return compactJSON(rawID), 0
	}
	var e struct {
		Code    *int    `json:"code"`
		Message *string `json:"message"`
	}
	if err := json.Unmarshal(rawErr, &e); err != nil || e.Code == nil || e.Message == nil {
		t.Fatalf("response %q: error without an integer code and a message", line)
	}
	return compactJSON(rawID), *e.Code
}

// compactJSON is a JSON value written as encoding/json writes its decoded
// form, so that ids equal as JSON compare equal ("&" and "\u0026",
// whitespace). Numbers keep their text, so an id beyond float64's range
// compares too. (adaptertest.CanonicalJSON does the same for the
// adapters; jsonrpc, below them, does not depend on their test kit.)
func compactJSON(raw []byte) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// lockedBuffer is a Writer shared by concurrent handlers.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
