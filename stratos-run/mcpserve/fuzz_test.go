package mcpserve

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/loopbackguard"
	"github.com/stratoscli/stratos/shared/sibling"
)

// The MCP handshake every fuzzed session starts with, and the ping that
// ends it: its answer shows that the session outlived the fuzzed input.
const (
	initializeLine  = `{"jsonrpc":"2.0","id":"fuzz-init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}`
	initializedLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	finalPingID     = "fuzz-final-ping"
	finalPingLine   = `{"jsonrpc":"2.0","id":"` + finalPingID + `","method":"ping"}`
)

// withoutStratosTools keeps the Stratos tools out of reach of the fuzzed
// server, whose tools would otherwise list, build and run the workflows
// of whoever fuzzes: a tool call fails as it does where none is installed.
func withoutStratosTools(f *testing.F) {
	f.Setenv(sibling.EnvBinDir, "")
	var keep []string
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		found := false
		for _, tool := range []string{toolDiscover, toolBuild, toolRun} {
			if _, err := os.Stat(filepath.Join(dir, tool)); err == nil {
				found = true
			}
		}
		if !found {
			keep = append(keep, dir)
		}
	}
	f.Setenv("PATH", strings.Join(keep, string(os.PathListSeparator)))
}

// FuzzStdio runs a session of `stratos mcp serve` over stdio: the
// handshake, any lines, then a ping. Every line the server writes is one
// JSON-RPC 2.0 message, and the ping is answered: no input ends the
// session.
func FuzzStdio(f *testing.F) {
	for _, lines := range [][]string{
		{`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`},
		{"not json", `{"jsonrpc":"2.0","id":1,`, "[]", `[{"jsonrpc":"2.0","id":2,"method":"ping"}]`, `"ping"`, `{"jsonrpc":"1.0","id":"a","method":"ping"}`},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"run_status","arguments":{"id":"x"}}}`, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`},
		{`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"nope","arguments":[]}}`, `{"jsonrpc":"2.0","id":5,"method":"resources/list"}`, `{"jsonrpc":"2.0","id":6,"result":{}}`},
		{`{"jsonrpc":"2.0","id":7,"method":"initialize","params":{}}`, `{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"method":"ping"}`},
	} {
		f.Add(strings.Join(lines, "\n"))
	}
	withoutStratosTools(f)
	f.Fuzz(func(t *testing.T, input string) {
		if strings.Contains(input, finalPingID) {
			return // the final ping's id is the test's
		}
		s, err := New(Options{Stderr: io.Discard})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = s.MCP().Run(ctx, &stdioTransport{in: inR, out: outW})
			outW.Close()
		}()
		go func() {
			_, _ = io.WriteString(inW, initializeLine+"\n"+initializedLine+"\n"+input+"\n"+finalPingLine+"\n")
		}()
		answered := false
		out := bufio.NewScanner(outR)
		out.Buffer(nil, 64<<20)
		for !answered && out.Scan() {
			id := checkMessage(t, out.Text())
			answered = id == `"`+finalPingID+`"`
		}
		inW.Close()
		cancel()
		go func() { _, _ = io.Copy(io.Discard, outR) }()
		<-done
		if !answered {
			t.Fatalf("the session ended before the final ping was answered (%v)", out.Err())
		}
	})
}

// checkMessage fails unless line is one JSON-RPC 2.0 message: a response
// (an id and exactly one of result and error, the error with a code and a
// message) or a request or notification (a method). It returns a
// response's id.
func checkMessage(t *testing.T, line string) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatalf("the server wrote %q, which is not a JSON object: %v", line, err)
	}
	if string(m["jsonrpc"]) != `"2.0"` {
		t.Fatalf("the server wrote %q: jsonrpc is not \"2.0\"", line)
	}
	if _, isCall := m["method"]; isCall {
		return ""
	}
	id, hasID := m["id"]
	_, hasResult := m["result"]
	rawErr, hasErr := m["error"]
	if !hasID || hasResult == hasErr {
		t.Fatalf("the server wrote %q: a response needs an id and exactly one of result and error", line)
	}
	if hasErr {
		var e struct {
			Code    *int64  `json:"code"`
			Message *string `json:"message"`
		}
		if err := json.Unmarshal(rawErr, &e); err != nil || e.Code == nil || e.Message == nil {
			t.Fatalf("the server wrote %q: an error without an integer code and a message", line)
		}
	}
	return string(id)
}

// fuzzToken is the bearer token of the fuzzed --http server.
const fuzzToken = "fuzz-token-0123456789abcdef0123456789"

// FuzzHTTP posts any body (with any content type, session id and bearer
// token) to `stratos mcp serve --http` as the command assembles it (the
// loopback guard around the streamable HTTP handler), within a session.
// The server never answers 5xx; without the bearer token it answers 401
// and nothing else; every message it answers with is JSON-RPC 2.0; and
// the session still answers a ping afterwards.
func FuzzHTTP(f *testing.F) {
	f.Add(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, "application/json", true, true)
	f.Add(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`, "application/json", true, true)
	f.Add(`[{"jsonrpc":"2.0","id":3,"method":"ping"},{"jsonrpc":"2.0","method":"x"}]`, "application/json", true, true)
	f.Add(`not json`, "text/plain", false, true)
	f.Add(`{"jsonrpc":"2.0","id":4,"method":"ping"}`, "application/json", true, false)
	f.Add(`{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocolVersion":"1999-01-01"}}`, "application/json; charset=utf-8", false, true)
	withoutStratosTools(f)
	s, err := New(Options{Stderr: io.Discard})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(s.Close)
	h := loopbackguard.Guard{Token: fuzzToken}.Wrap(httpHandler(s))
	rec := postMCP(f, h, "", initializeLine, "application/json", true)
	session := rec.Header().Get("Mcp-Session-Id")
	if rec.Code != http.StatusOK || session == "" {
		f.Fatalf("initialize: HTTP %d, session %q: %s", rec.Code, session, rec.Body)
	}
	postMCP(f, h, session, initializedLine, "application/json", true)
	f.Fuzz(func(t *testing.T, body, contentType string, inSession, withToken bool) {
		sid := ""
		if inSession {
			sid = session
		}
		rec := postMCP(t, h, sid, body, contentType, withToken)
		if rec.Code >= 500 {
			t.Fatalf("HTTP %d for %q: %s", rec.Code, body, rec.Body)
		}
		if !withToken {
			if rec.Code != http.StatusUnauthorized || strings.Contains(rec.Body.String(), "jsonrpc") {
				t.Fatalf("without the token: HTTP %d %s", rec.Code, rec.Body)
			}
			return
		}
		for _, m := range messagesOf(t, rec) {
			checkMessage(t, m)
		}
		ping := postMCP(t, h, session, finalPingLine, "application/json", true)
		found := false
		for _, m := range messagesOf(t, ping) {
			found = found || checkMessage(t, m) == `"`+finalPingID+`"`
		}
		if ping.Code != http.StatusOK || !found {
			t.Fatalf("after %q the session no longer answers a ping: HTTP %d %s", body, ping.Code, ping.Body)
		}
	})
}

// postMCP posts body to h as a client of the loopback server at
// 127.0.0.1:8765 would.
func postMCP(t testing.TB, h http.Handler, session, body, contentType string, withToken bool) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8765/", strings.NewReader(body))
	req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8765}))
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Accept", "application/json, text/event-stream")
	if withToken {
		req.Header.Set("Authorization", "Bearer "+fuzzToken)
	}
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// messagesOf returns the JSON-RPC messages of a response: its JSON body,
// or the data of its server-sent events.
func messagesOf(t *testing.T, rec *httptest.ResponseRecorder) []string {
	t.Helper()
	body := rec.Body.String()
	switch ct := rec.Header().Get("Content-Type"); {
	case strings.HasPrefix(ct, "text/event-stream"):
		var out []string
		for _, line := range strings.Split(body, "\n") {
			// An empty data is the priming event, which carries only
			// an event ID to resume from.
			if data, ok := strings.CutPrefix(line, "data: "); ok && data != "" {
				out = append(out, data)
			}
		}
		return out
	case strings.HasPrefix(ct, "application/json") && rec.Code < 300:
		return []string{strings.TrimSpace(body)}
	}
	return nil
}
