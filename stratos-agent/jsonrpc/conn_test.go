package jsonrpc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/wirelog"
)

// TestServeAnswersAndSurvivesGarbage drives a peer with raw lines: a
// malformed line gets a parse error and does not stop the connection; an
// agent error carries its code in data; a notification gets no answer.
func TestServeAnswersAndSurvivesGarbage(t *testing.T) {
	in := strings.Join([]string{
		`not json`,
		`{"jsonrpc":"2.0","id":1,"method":"fail"}`,
		`{"jsonrpc":"2.0","method":"note","params":{"x":1}}`,
		`{"jsonrpc":"2.0","id":2,"method":"echo","params":{"x":2}}`,
	}, "\n") + "\n"
	var noted []string
	h := func(_ context.Context, method string, params json.RawMessage) (any, error) {
		switch method {
		case "fail":
			return nil, agentproto.Errorf(agentproto.CodeAdmission, "full")
		case "note":
			noted = append(noted, string(params))
			return nil, nil
		}
		return params, nil
	}
	outR, outW := io.Pipe()
	c := New(strings.NewReader(in), outW, h, nil)
	go func() { _ = c.Serve(context.Background()); _ = outW.Close() }()
	var got []map[string]any
	sc := bufio.NewScanner(outR)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("host wrote a malformed line %q", sc.Text())
		}
		got = append(got, m)
	}
	if len(got) != 3 {
		t.Fatalf("responses %v, want 3 (parse error, error, result)", got)
	}
	byID := map[string]map[string]any{}
	for _, m := range got {
		b, _ := json.Marshal(m["id"])
		byID[string(b)] = m
	}
	if e := byID["null"]["error"].(map[string]any); e["code"].(float64) != agentproto.RPCParseError {
		t.Errorf("parse error response: %v", byID["null"])
	}
	if data := byID["1"]["error"].(map[string]any)["data"].(map[string]any); data["code"] != agentproto.CodeAdmission {
		t.Errorf("agent error data: %v", byID["1"])
	}
	if r := byID["2"]["result"].(map[string]any); r["x"].(float64) != 2 {
		t.Errorf("echo result: %v", byID["2"])
	}
	if len(noted) != 1 || noted[0] != `{"x":1}` {
		t.Errorf("notifications %v", noted)
	}
}

// TestServeSkipsAnOversizedLine: a line over the limit is answered as an
// invalid request without being held whole, and the next line is served.
func TestServeSkipsAnOversizedLine(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1,"method":"echo","params":"` + strings.Repeat("x", 300<<10) + `"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"echo","params":"ok"}` + "\n"
	var out strings.Builder
	var problems []error
	c := New(strings.NewReader(in), &out, func(_ context.Context, _ string, p json.RawMessage) (any, error) { return p, nil },
		func(err error) { problems = append(problems, err) })
	c.maxLine = 100 << 10
	if err := c.Serve(context.Background()); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"id":null`) || !strings.Contains(lines[0], `-32600`) ||
		lines[1] != `{"jsonrpc":"2.0","id":2,"result":"ok"}` {
		t.Fatalf("answers:\n%s", out.String())
	}
	if len(problems) != 1 {
		t.Errorf("reported %v", problems)
	}
}

// TestCallFailsWhenTheConnectionEnds: a pending Call is released with
// ErrClosed when the other side goes away, and later Calls fail at once.
func TestCallFailsWhenTheConnectionEnds(t *testing.T) {
	inR, inW := io.Pipe()
	c := New(inR, io.Discard, func(context.Context, string, json.RawMessage) (any, error) { return nil, nil }, nil)
	served := make(chan struct{})
	go func() { _ = c.Serve(context.Background()); close(served) }()
	called := make(chan error, 1)
	go func() { called <- c.Call(context.Background(), "hook.onStart", struct{}{}, nil) }()
	_ = inW.Close()
	<-served
	if err := <-called; !errors.Is(err, ErrClosed) {
		t.Fatalf("pending call: %v, want ErrClosed", err)
	}
	if err := c.Call(context.Background(), "x", nil, nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("later call: %v, want ErrClosed", err)
	}
}

// With the debug wire log on, every message read and written is on it,
// in order of its direction, secrets redacted.
func TestTheWireLogShowsBothDirectionsRedacted(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1,"method":"echo","params":{"apiKey":"sk-secret-1","prompt":"hi"}}` + "\n"
	var wire strings.Builder
	log := wirelog.FromEnv(func(string) string { return "1" }, &wire, "host")
	h := func(_ context.Context, _ string, params json.RawMessage) (any, error) { return params, nil }
	var out strings.Builder
	if err := New(strings.NewReader(in), &out, h, nil).LogWire(log).Serve(context.Background()); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(wire.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "stratos wire: host <- ") || !strings.HasPrefix(lines[1], "stratos wire: host -> ") {
		t.Fatalf("wire log:\n%s\nwant one line in, one out", wire.String())
	}
	if strings.Contains(wire.String(), "sk-secret-1") || !strings.Contains(wire.String(), `"prompt":"hi"`) {
		t.Errorf("wire log shows the key or hides the prompt:\n%s", wire.String())
	}
	if !strings.Contains(out.String(), "sk-secret-1") {
		t.Errorf("the answer itself must be unchanged: %s", out.String())
	}
}

// TestARunningRequestDoesNotStopTheReading: while one request's handler
// runs, the connection goes on reading: a notification and a second
// request are handled, and the first handler can wait for them (as an
// execute waits for a hook's answer or is cancelled by a notification).
func TestARunningRequestDoesNotStopTheReading(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	noted := make(chan struct{})
	second := make(chan struct{})
	h := func(ctx context.Context, method string, _ json.RawMessage) (any, error) {
		switch method {
		case "slow":
			for _, ch := range []chan struct{}{noted, second} {
				select {
				case <-ch:
				case <-ctx.Done():
					return nil, ctx.Err()
				case <-time.After(10 * time.Second):
					return nil, errors.New("the connection stopped reading while a request ran")
				}
			}
			return "slow done", nil
		case "note":
			close(noted)
		case "fast":
			close(second)
			return "fast done", nil
		}
		return nil, nil
	}
	c := New(inR, outW, h, nil)
	served := make(chan error, 1)
	go func() { served <- c.Serve(context.Background()); _ = outW.Close() }()
	go func() {
		_, _ = io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"slow"}`+"\n")
		_, _ = io.WriteString(inW, `{"jsonrpc":"2.0","method":"note"}`+"\n")
		_, _ = io.WriteString(inW, `{"jsonrpc":"2.0","id":2,"method":"fast"}`+"\n")
	}()
	sc := bufio.NewScanner(outR)
	var got []string
	for len(got) < 2 && sc.Scan() {
		got = append(got, sc.Text())
	}
	// The two answers may come in either order: the slow request ends as
	// soon as the fast one has begun.
	sort.Strings(got)
	want := []string{`{"jsonrpc":"2.0","id":1,"result":"slow done"}`, `{"jsonrpc":"2.0","id":2,"result":"fast done"}`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("answers:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	_ = inW.Close()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
}

// TestTheEndOfInputCancelsRunningHandlers: when the input ends, a running
// handler's context is cancelled and Serve returns only after the handler
// did; a request on a last line without its newline is still handled.
func TestTheEndOfInputCancelsRunningHandlers(t *testing.T) {
	var out strings.Builder
	var mu sync.Mutex
	var ended []string
	h := func(ctx context.Context, method string, _ json.RawMessage) (any, error) {
		end := method
		select {
		case <-ctx.Done():
		case <-time.After(10 * time.Second):
			end += " (never cancelled)"
		}
		mu.Lock()
		ended = append(ended, end)
		mu.Unlock()
		return nil, ctx.Err()
	}
	in := `{"jsonrpc":"2.0","id":1,"method":"first"}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"last"}`
	c := New(strings.NewReader(in), &out, h, nil)
	if err := c.Serve(context.Background()); err != nil {
		t.Fatal(err)
	}
	sort.Strings(ended)
	if strings.Join(ended, " ") != "first last" {
		t.Fatalf("handlers ended before Serve returned: %v, want first and last", ended)
	}
	if n := strings.Count(out.String(), "context canceled"); n != 2 {
		t.Fatalf("answers:\n%s\nwant two cancelled", out.String())
	}
}
