package jsonrpc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

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
