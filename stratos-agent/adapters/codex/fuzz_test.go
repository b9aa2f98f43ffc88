package codex

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
	"github.com/stratoscli/stratos/stratos-agent/adapter/process"
)

// FuzzOnLine feeds the app-server's stdout, one line at a time, to the
// adapter's JSON-RPC reader, with one call of the adapter pending (id 1).
// Its "app-server" is cat, so each answer the adapter writes comes back to
// be checked. Every server request is answered exactly once, under its own
// id, with a result or an error; the pending call gets the one response
// with its id, notifications reach the handler in order, and the rest is
// ignored.
func FuzzOnLine(f *testing.F) {
	for _, lines := range [][]string{{
		`{"method":"thread/started","params":{"thread":{"id":"t1"}}}`,
		`{"id":0,"method":"item/commandExecution/requestApproval","params":{"threadId":"t1","command":"ls"}}`,
		`{"id":1,"result":{"thread":{"id":"t1"}}}`,
		`{"method":"turn/completed","params":{"turn":{"id":"u1","status":"completed"}}}`,
	}, {
		`{"id":"req-7","method":"item/fileChange/requestApproval"}`,
		`{"id":1,"error":{"code":-32600,"message":"bad"}}`,
		`{"id":1,"result":{}}`,
		`not json`,
		`{"id":null,"method":"x"}`,
		`{"jsonrpc":"2.0","id":{"a":[1]},"method":"fail","params":[1,2]}`,
	}, {
		`{"id":1,"result":"a string"} trailing`,
		`{"method":""}`,
		`{"ID":5,"METHOD":"caseless"}`,
	}} {
		f.Add(strings.Join(lines, "\n"))
	}
	answers := make(chan []byte, 1024)
	echo, err := process.Start(process.Spec{Name: "cat", Path: "cat", Log: hclog.NewNullLogger(),
		Stdout: func(line []byte) { answers <- line }})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = echo.Shutdown(context.Background()) })
	f.Fuzz(func(t *testing.T, stdout string) {
		var notified []string
		c := &conn{p: echo, log: hclog.NewNullLogger(), pending: map[string]chan message{}, h: rpcHandlers{
			notify: func(method string, _ json.RawMessage) { notified = append(notified, method) },
			request: func(method string, _ json.RawMessage) (any, error) {
				if method == "fail" {
					return nil, errors.New("failed as asked")
				}
				return map[string]string{"method": method}, nil
			},
		}}
		pending := make(chan message, 1)
		c.pending["1"] = pending
		var requests []string
		var wantNotified []string
		responses := 0
		for _, line := range strings.Split(stdout, "\n") {
			line = strings.TrimSpace(line)
			if line == "" {
				continue // the line reader hands over no blank lines
			}
			var m message
			if line[0] == '{' && json.Unmarshal([]byte(line), &m) == nil {
				switch {
				case m.Method != "" && len(m.ID) > 0:
					requests = append(requests, adaptertest.CanonicalJSON(m.ID))
				case m.Method != "":
					wantNotified = append(wantNotified, m.Method)
				case string(m.ID) == "1":
					responses++
				}
			}
			c.onLine([]byte(line))
		}
		if strings.Join(notified, "\n") != strings.Join(wantNotified, "\n") || len(notified) != len(wantNotified) {
			t.Fatalf("notifications %q, want %q", notified, wantNotified)
		}
		if got := len(pending); got != min(responses, 1) {
			t.Fatalf("the pending call got %d responses, want %d", got, min(responses, 1))
		}
		answered := map[string]int{}
		for range requests {
			answer := <-answers
			var a struct {
				ID     json.RawMessage `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  *rpcError       `json:"error"`
			}
			if err := json.Unmarshal(answer, &a); err != nil || (a.Result == nil) == (a.Error == nil) {
				t.Fatalf("answer %s: want an id and exactly one of result and error (%v)", answer, err)
			}
			answered[adaptertest.CanonicalJSON(a.ID)]++
		}
		for _, id := range requests {
			answered[id]--
		}
		for id, n := range answered {
			if n != 0 {
				t.Fatalf("request id %s answered %+d times too many", id, n)
			}
		}
	})
}
