package serve

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratoscli/stratos/stratos-run/records"
	"github.com/stratoscli/stratos/stratos-run/runs"
)

// The fuzzed server's secrets and records.
const (
	fuzzWriteToken = "write-token-0123456789abcdef"
	fuzzReadToken  = "read-token-fedcba9876543210"
	fuzzDoneID     = "20261201T100000Z-aaaa0001"
	fuzzFailedID   = "20261201T110000Z-bbbb0002"
	fuzzCrashedID  = "20261201T120000Z-cccc0003"
)

// FuzzHandler sends any request (method, target, Host, Origin, the
// browser's Sec-Fetch headers, Authorization, Cookie, the write token's
// header and a body) to a loopback server over three finished run records.
// It checks that the server never answers 5xx, that a request without the
// read token, from another origin, or to a Host that is not a loopback
// address gets a refusal that shows neither records nor secrets, that the
// write token is only in the page itself, that the read token goes back
// only to who presented it, and that no request changes a record.
func FuzzHandler(f *testing.F) {
	for _, c := range []fuzzRequest{
		{"GET", "/", "127.0.0.1:8737", "", "", "Bearer " + fuzzReadToken, "", "", ""},
		{"GET", "/?token=" + fuzzReadToken, "localhost:8737", "", "none", "", "", "", ""},
		{"GET", "/api/runs?status=failed&workflow=review", "[::1]:8737", "http://[::1]:8737", "same-origin", "", "stratos_read_8737=" + fuzzReadToken, "", ""},
		{"GET", "/api/runs/" + fuzzDoneID, "127.0.0.1:8737", "", "", "Bearer " + fuzzReadToken, "", "", ""},
		{"GET", "/api/runs/2026/events", "127.0.0.1:8737", "", "", "Bearer " + fuzzReadToken, "", "", "2"},
		{"GET", "/api/runs/stream?status=bogus", "127.0.0.1:8737", "", "", "Bearer " + fuzzReadToken, "", "", ""},
		{"POST", "/api/runs/" + fuzzFailedID + "/stop", "127.0.0.1:8737", "http://127.0.0.1:8737", "", "Bearer " + fuzzReadToken, "", fuzzWriteToken, ""},
		{"GET", "/app/app.js", "127.0.0.1:8737", "", "", "Bearer " + fuzzReadToken, "", "", ""},
		{"GET", "/api/runs", "evil.example", "http://evil.example", "cross-site", "Bearer " + fuzzReadToken, "", "", ""},
		{"GET", "/", "127.0.0.1:8737", "", "cross-site", "", "stratos_read_8737=" + fuzzReadToken, "", ""},
		{"DELETE", "/api/runs/../../etc/passwd", "127.0.0.1.nip.io", "null", "", "Bearer " + fuzzReadToken, "", "", ""},
	} {
		f.Add(c.method, c.target, c.host, c.origin, c.fetchSite, c.authorization, c.cookie, c.writeToken, c.lastEventID)
	}
	h, runsDir := fuzzServer(f)
	before := recordDigest(f, runsDir)
	f.Fuzz(func(t *testing.T, method, target, host, origin, fetchSite, authorization, cookie, writeToken, lastEventID string) {
		q := fuzzRequest{method, target, host, origin, fetchSite, authorization, cookie, writeToken, lastEventID}
		req, ok := q.parse()
		if !ok {
			return // net/http answers 400 before any handler
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // a stream sends what it has, then sees its client gone
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req.WithContext(ctx))
		checkResponse(t, q, req, rec)
		if after := recordDigest(t, runsDir); after != before {
			t.Fatalf("%s %s changed the run records", req.Method, req.RequestURI)
		}
	})
}

// fuzzRequest is one request's fields as FuzzHandler varies them.
type fuzzRequest struct {
	method, target, host, origin, fetchSite, authorization, cookie, writeToken, lastEventID string
}

// parse writes the request as a client would send it and reads it as the
// server would; ok is false when net/http would not accept it.
func (q fuzzRequest) parse() (*http.Request, bool) {
	var b strings.Builder
	b.WriteString(q.method + " " + q.target + " HTTP/1.1\r\nHost: " + q.host + "\r\n")
	for _, h := range [][2]string{{"Origin", q.origin}, {"Sec-Fetch-Site", q.fetchSite}, {"Authorization", q.authorization},
		{"Cookie", q.cookie}, {TokenHeader, q.writeToken}, {"Last-Event-ID", q.lastEventID}} {
		if h[1] != "" {
			b.WriteString(h[0] + ": " + h[1] + "\r\n")
		}
	}
	b.WriteString("Content-Length: 0\r\n\r\n")
	req, err := http.ReadRequest(bufio.NewReader(strings.NewReader(b.String())))
	if err != nil || req.Host == "" {
		return nil, false
	}
	return req, true
}

func checkResponse(t *testing.T, q fuzzRequest, req *http.Request, rec *httptest.ResponseRecorder) {
	t.Helper()
	body := rec.Body.String()
	what := req.Method + " " + req.RequestURI + " (Host " + req.Host + ")"
	if rec.Code >= 500 {
		t.Fatalf("%s: HTTP %d: %s", what, rec.Code, body)
	}
	if refused := mustRefuse(req); refused != "" {
		if rec.Code != http.StatusForbidden {
			t.Fatalf("%s %s, yet HTTP %d: %.300s", what, refused, rec.Code, body)
		}
		for _, secret := range []string{fuzzDoneID, fuzzFailedID, fuzzCrashedID, "review", fuzzWriteToken, fuzzReadToken} {
			if strings.Contains(body, secret) {
				t.Fatalf("%s %s, yet its refusal shows %q: %.300s", what, refused, secret, body)
			}
		}
	}
	if strings.Contains(body, fuzzWriteToken) && (req.URL.Path != "/" || rec.Code != http.StatusOK) {
		t.Fatalf("%s: HTTP %d shows the write token outside the page", what, rec.Code)
	}
	presented := strings.Contains(q.target+q.authorization+q.cookie, fuzzReadToken)
	for k, vs := range rec.Header() {
		for _, v := range vs {
			if strings.Contains(v, fuzzReadToken) && !presented {
				t.Fatalf("%s: header %s carries the read token to a request without it", what, k)
			}
		}
	}
	if strings.Contains(body, fuzzReadToken) {
		t.Fatalf("%s: HTTP %d shows the read token", what, rec.Code)
	}
	if rec.Code == http.StatusOK && strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") && !json.Valid(rec.Body.Bytes()) {
		t.Fatalf("%s: HTTP 200 with JSON that is not: %.300s", what, body)
	}
}

// mustRefuse says why the server must refuse req whatever it asks for, ""
// when it need not: it does not carry the read token, it names a Host that
// is not a loopback address, or it comes from a page of another origin.
func mustRefuse(req *http.Request) string {
	if !strings.Contains(req.Header.Get("Authorization")+req.Header.Get("Cookie")+req.URL.RawQuery, fuzzReadToken) {
		return "carries no read token"
	}
	host := req.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if ip := net.ParseIP(host); !strings.EqualFold(host, "localhost") && (ip == nil || !ip.IsLoopback()) {
		return "names a Host that is not a loopback address"
	}
	if o := req.Header.Get("Origin"); o != "" {
		if u, err := url.Parse(o); err != nil || u.Scheme != "http" || !strings.EqualFold(u.Host, req.Host) {
			return "comes from another origin"
		}
	}
	return ""
}

// fuzzServer records a succeeded, a failed and a crashed run and returns
// a loopback server's handler over them.
func fuzzServer(f *testing.F) (http.Handler, string) {
	store := &runs.Store{Dir: filepath.Join(f.TempDir(), "runs")}
	start := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for i, r := range []struct {
		id, status string
		pid        int
	}{{fuzzDoneID, records.StatusSucceeded, os.Getpid()}, {fuzzFailedID, records.StatusFailed, os.Getpid()}, {fuzzCrashedID, "", 1<<30 - 1}} {
		run, err := records.Begin(store.Dir, records.Invocation{ExecutionID: r.id, Workflow: "review", PID: r.pid,
			StartedAt: start.Add(time.Duration(i) * time.Hour), Input: json.RawMessage(`{"code":"x = 1"}`)})
		if err != nil {
			f.Fatal(err)
		}
		if r.status == "" {
			continue // its process is gone: the first listing marks it crashed
		}
		final := records.Final{Status: r.status, EndedAt: start.Add(time.Duration(i)*time.Hour + time.Second), Output: json.RawMessage(`{"verdicts":["approve"]}`)}
		if r.status == records.StatusFailed {
			final.Output, final.Error = nil, json.RawMessage(`{"code":"workflow_failed","message":"boom"}`)
		}
		if err := run.Finish(final); err != nil {
			f.Fatal(err)
		}
	}
	events := `{"type":"agent.invocation.started","timestamp":"2026-12-01T10:00:01Z","agentId":"` + fuzzDoneID + `/agent-1","executionId":"` + fuzzDoneID + `"}` + "\n"
	if err := os.WriteFile(filepath.Join(store.Dir, fuzzDoneID, runs.EventsFile), []byte(events), 0o644); err != nil {
		f.Fatal(err)
	}
	if _, _, err := store.List(runs.Filter{}); err != nil { // the crash is noticed, the index written
		f.Fatal(err)
	}
	s, err := New(Options{Store: store, Loopback: true, Token: fuzzWriteToken, ReadToken: fuzzReadToken, Port: 8737, Poll: time.Millisecond, StopWait: time.Second})
	if err != nil {
		f.Fatal(err)
	}
	return s.Handler(), store.Dir
}

// recordDigest hashes every run record file (the index, a cache, aside).
func recordDigest(t testing.TB, runsDir string) string {
	t.Helper()
	h := sha256.New()
	for _, id := range []string{fuzzDoneID, fuzzFailedID, fuzzCrashedID} {
		for _, name := range []string{records.StatusFile, records.InvocationFile, records.OutputFile, records.ErrorFile, runs.EventsFile} {
			data, err := os.ReadFile(filepath.Join(runsDir, id, name))
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			h.Write([]byte(id + "/" + name + "\x00"))
			h.Write(data)
		}
	}
	return string(h.Sum(nil))
}
