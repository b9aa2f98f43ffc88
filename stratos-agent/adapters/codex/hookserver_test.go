package codex

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// Other users of the machine and web pages in the user's browser reach
// the hook server's port too: without the session's token, under a
// foreign Host or from another origin or site, a request is refused; with
// them, the MCP server answers.
func TestHookServerServesOnlyTheSessionsAppServer(t *testing.T) {
	var calls atomic.Int32
	hook := func(context.Context, hookArgs) string { calls.Add(1); return "" }
	h, err := startHookServer(hook, hook)
	if err != nil {
		t.Fatal(err)
	}
	defer h.close()
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"codex","version":"1"}}}`
	for _, tt := range []struct {
		name   string
		change func(*http.Request)
		want   int
	}{
		{"no token", func(r *http.Request) { r.Header.Del("Authorization") }, http.StatusUnauthorized},
		{"a wrong token", func(r *http.Request) { r.Header.Set("Authorization", "Bearer x"+h.token[1:]) }, http.StatusUnauthorized},
		{"a foreign Host", func(r *http.Request) { r.Host = "evil.example:" + r.URL.Port() }, http.StatusForbidden},
		{"a loopback Host of another port", func(r *http.Request) { r.Host = "127.0.0.1:1" }, http.StatusForbidden},
		{"another origin", func(r *http.Request) { r.Header.Set("Origin", "https://evil.example") }, http.StatusForbidden},
		{"another site", func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") }, http.StatusForbidden},
		{"the app-server", func(*http.Request) {}, http.StatusOK},
	} {
		req, err := http.NewRequest(http.MethodPost, h.endpoint.url, strings.NewReader(initialize))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer "+h.token)
		tt.change(req)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("%s: HTTP %d, want %d", tt.name, resp.StatusCode, tt.want)
		}
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("%d hooks ran", n)
	}
}
