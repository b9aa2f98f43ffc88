package opencode

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// Other users of the machine and web pages in the user's browser reach
// the hook server's port too: without the session's token, under a
// foreign Host or from another origin or site, a request is refused and
// no hook runs; the plugin's own request is answered.
func TestHookServerServesOnlyTheSessionsPlugin(t *testing.T) {
	var calls atomic.Int32
	hs, err := startHookServer(func(context.Context, beforeRequest) hookAnswer {
		calls.Add(1)
		return hookAnswer{Decision: "allow"}
	}, func(context.Context, afterRequest) hookAnswer { calls.Add(1); return hookAnswer{Decision: "keep"} })
	if err != nil {
		t.Fatal(err)
	}
	defer hs.close()
	for _, tt := range []struct {
		name   string
		change func(*http.Request)
		want   int
	}{
		{"no token", func(r *http.Request) { r.Header.Del("Authorization") }, http.StatusUnauthorized},
		{"a wrong token", func(r *http.Request) { r.Header.Set("Authorization", "Bearer x"+hs.token[1:]) }, http.StatusUnauthorized},
		{"a foreign Host", func(r *http.Request) { r.Host = "evil.example:" + r.URL.Port() }, http.StatusForbidden},
		{"a loopback Host of another port", func(r *http.Request) { r.Host = "localhost:1" }, http.StatusForbidden},
		{"another origin", func(r *http.Request) { r.Header.Set("Origin", "https://evil.example") }, http.StatusForbidden},
		{"another site", func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") }, http.StatusForbidden},
	} {
		if got := hookPost(t, hs, tt.change); got != tt.want {
			t.Errorf("%s: HTTP %d, want %d", tt.name, got, tt.want)
		}
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("%d hooks ran for refused requests", n)
	}
	if got := hookPost(t, hs, func(*http.Request) {}); got != http.StatusOK || calls.Load() != 1 {
		t.Errorf("the plugin's request: HTTP %d, %d hooks ran; want 200 and one", got, calls.Load())
	}
}

// hookPost sends a /before call as the plugin does, changed by change.
func hookPost(t *testing.T, hs *hookServer, change func(*http.Request)) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, hs.url+"/before", strings.NewReader(`{"sessionID":"s","callID":"c","tool":"bash","args":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+hs.token)
	change(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// `opencode serve` is OpenCode's own server, and it runs the agent's
// tools as the user: every request needs the session's random password
// (HTTP Basic, OPENCODE_SERVER_PASSWORD), whatever its Host or Origin, and
// Stratos's client, which sends it, keeps working.
func TestTheServerAnswersOnlyWithItsPassword(t *testing.T) {
	b := newBed(t, `{"turns":[
		{"match":{"marker":"[pw]"},"reply":[{"text":"fine"}]},
		{"match":{"marker":"[pw]"},"reply":[{"text":"fine"}]}]}`)
	a := b.open(nil, nil)
	if res, err := a.Execute(b.Context(), "[pw] one"); err != nil || res.Text != "fine" {
		t.Fatalf("execute = %+v, %v", res, err)
	}
	s := a.(*session)
	basic := func(password string) func(*http.Request) {
		return func(r *http.Request) { r.SetBasicAuth("opencode", password) }
	}
	for _, tt := range []struct {
		name   string
		change func(*http.Request)
	}{
		{"no password", func(*http.Request) {}},
		{"a wrong password", basic("x" + s.srv.password[1:])},
		{"another user name", func(r *http.Request) { r.SetBasicAuth("admin", s.srv.password) }},
		{"a bearer token", func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+s.srv.password) }},
		{"a foreign Host", func(r *http.Request) { r.Host = "evil.example:" + r.URL.Port() }},
		{"another origin", func(r *http.Request) { r.Header.Set("Origin", "https://evil.example") }},
	} {
		for _, path := range []string{"/config", "/session", "/event"} {
			req, err := http.NewRequestWithContext(b.Context(), http.MethodGet, s.srv.url+path, nil)
			if err != nil {
				t.Fatal(err)
			}
			tt.change(req)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("GET %s with %s: HTTP %d, want 401", path, tt.name, resp.StatusCode)
			}
		}
	}
	if res, err := a.Execute(b.Context(), "[pw] two"); err != nil || res.Text != "fine" {
		t.Fatalf("execute after the refusals = %+v, %v", res, err)
	}
}
