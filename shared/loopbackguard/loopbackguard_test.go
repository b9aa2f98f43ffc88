package loopbackguard_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/loopbackguard"
)

// guarded serves a handler behind g on a loopback port; the handler
// answers 200 with the Authorization header it was given.
func guarded(t *testing.T, g loopbackguard.Guard) (*httptest.Server, string) {
	t.Helper()
	srv := httptest.NewServer(g.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "passed; Authorization="+r.Header.Get("Authorization"))
	})))
	t.Cleanup(srv.Close)
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return srv, u.Port()
}

type request struct {
	name    string
	method  string
	host    string // "" = the server's own 127.0.0.1:<port>
	headers map[string]string
}

func send(t *testing.T, srv *httptest.Server, port string, q request) (int, string) {
	t.Helper()
	method := q.method
	if method == "" {
		method = http.MethodGet
	}
	req, err := http.NewRequest(method, srv.URL+"/x", nil)
	if err != nil {
		t.Fatal(err)
	}
	if q.host != "" {
		req.Host = strings.ReplaceAll(q.host, "PORT", port)
	}
	for k, v := range q.headers {
		req.Header.Set(k, v)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// Requests a web page or another name can make are refused with a reason;
// what a program of ours sends passes.
func TestHostOriginAndSiteAreChecked(t *testing.T) {
	srv, port := guarded(t, loopbackguard.Guard{})
	refused := []request{
		{name: "foreign Host (DNS rebinding)", host: "evil.example:PORT"},
		{name: "foreign Host without port", host: "evil.example"},
		{name: "loopback Host with another port", host: "127.0.0.1:1"},
		{name: "loopback Host without port", host: "127.0.0.1"},
		{name: "foreign Origin", headers: map[string]string{"Origin": "https://evil.example"}},
		{name: "Origin of another loopback port", headers: map[string]string{"Origin": "http://127.0.0.1:1"}},
		{name: "null Origin", headers: map[string]string{"Origin": "null"}},
		{name: "https Origin of this host", headers: map[string]string{"Origin": "https://127.0.0.1:" + port}},
		{name: "cross-site fetch", headers: map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "image"}},
		{name: "same-site fetch (another port)", headers: map[string]string{"Sec-Fetch-Site": "same-site", "Sec-Fetch-Mode": "cors", "Sec-Fetch-Dest": "empty"}},
		{name: "cross-site form post navigation", method: http.MethodPost, headers: map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}},
		{name: "cross-site frame", headers: map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "iframe"}},
	}
	for _, q := range refused {
		status, body := send(t, srv, port, q)
		if status != http.StatusForbidden || !strings.HasPrefix(body, "stratos: request refused: ") {
			t.Errorf("%s: %d %q, want 403 with the reason", q.name, status, body)
		}
	}
	passed := []request{
		{name: "a program"},
		{name: "localhost", host: "localhost:PORT"},
		{name: "another loopback address", host: "127.0.0.2:PORT"},
		{name: "::1", host: "[::1]:PORT"},
		{name: "own Origin", headers: map[string]string{"Origin": "http://127.0.0.1:" + port}},
		{name: "a typed URL", headers: map[string]string{"Sec-Fetch-Site": "none", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}},
		{name: "a redirect from another site (a top-level navigation)", headers: map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}},
	}
	for _, q := range passed {
		if status, body := send(t, srv, port, q); status != http.StatusOK {
			t.Errorf("%s: %d %q, want 200", q.name, status, body)
		}
	}
}

// With a token, every request must carry it; the handler never sees it.
func TestTheTokenIsRequiredAndNotPassedOn(t *testing.T) {
	token, err := loopbackguard.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	srv, port := guarded(t, loopbackguard.Guard{Token: token})
	for name, auth := range map[string]string{
		"no token":        "",
		"a wrong token":   "Bearer " + strings.Repeat("0", len(token)),
		"a prefix":        "Bearer " + token[:10],
		"another scheme":  "Basic " + token,
		"the bare secret": token,
	} {
		status, body := send(t, srv, port, request{headers: map[string]string{"Authorization": auth}})
		if status != http.StatusUnauthorized || !strings.Contains(body, "bearer token") {
			t.Errorf("%s: %d %q, want 401 naming the token", name, status, body)
		}
	}
	status, body := send(t, srv, port, request{headers: map[string]string{"Authorization": "Bearer " + token}})
	if status != http.StatusOK || body != "passed; Authorization=" {
		t.Errorf("with the token: %d %q, want 200 and no Authorization header passed on", status, body)
	}
	// The token does not make a foreign Host or Origin acceptable.
	for _, q := range []request{
		{host: "evil.example:PORT", headers: map[string]string{"Authorization": "Bearer " + token}},
		{headers: map[string]string{"Authorization": "Bearer " + token, "Origin": "https://evil.example"}},
	} {
		if status, _ := send(t, srv, port, q); status != http.StatusForbidden {
			t.Errorf("%+v: %d, want 403", q, status)
		}
	}
}

func TestNewTokenIsRandom(t *testing.T) {
	a, _ := loopbackguard.NewToken()
	b, _ := loopbackguard.NewToken()
	if len(a) != 64 || a == b {
		t.Errorf("tokens %q and %q: want 64 hex digits, different", a, b)
	}
	if loopbackguard.EqualSecret("", "") || !loopbackguard.EqualSecret(a, a) || loopbackguard.EqualSecret(a, b) {
		t.Error("EqualSecret: an empty secret must match nothing, a secret itself only")
	}
}

func TestIsLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LOCALHOST": true, "127.0.0.1": true, "127.1.2.3": true, "::1": true, "[::1]": true,
		"evil.example": false, "0.0.0.0": false, "10.0.0.1": false, "localhost.evil.example": false, "": false,
	} {
		if got := loopbackguard.IsLoopbackHost(host); got != want {
			t.Errorf("IsLoopbackHost(%q) = %v, want %v", host, got, want)
		}
	}
}
