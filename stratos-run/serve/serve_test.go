package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/stratos-run/records"
	"github.com/stratoscli/stratos/stratos-run/runs"
)

func ev(seq int, typ, agent string) string {
	return `{"type":"` + typ + `","timestamp":"2026-12-03T09:00:01Z","sequence":` + itoa(seq) + `,"agentId":"` + agent + `","executionId":"run"}`
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestGuardRefusesEveryKindOfForeignWrite(t *testing.T) {
	ok := func() *http.Request {
		r := arrivedOn8737(httptest.NewRequest("POST", "http://127.0.0.1:8737/api/runs/x/stop", nil))
		r.Header.Set(TokenHeader, "tok")
		r.Header.Set("Origin", "http://127.0.0.1:8737")
		r.AddCookie(&http.Cookie{Name: "stratos_read_8737", Value: "read"})
		return r
	}
	g := guard{loopback: true, token: "tok", readToken: "read", cookie: "stratos_read_8737"}
	if why := g.writeRefusal(ok()); why != "" {
		t.Fatalf("own page refused: %s", why)
	}
	noOrigin := ok()
	noOrigin.Header.Del("Origin")
	if why := g.writeRefusal(noOrigin); why != "" {
		t.Errorf("a client without Origin but with the token refused: %s", why)
	}
	cases := map[string]func(r *http.Request){
		"DNS rebinding (foreign Host)": func(r *http.Request) { r.Host = "evil.example:8737" },
		"cross-site Origin":            func(r *http.Request) { r.Header.Set("Origin", "http://evil.example") },
		"other port Origin":            func(r *http.Request) { r.Header.Set("Origin", "http://127.0.0.1:9999") },
		"opaque Origin":                func(r *http.Request) { r.Header.Set("Origin", "null") },
		"cross-site fetch":             func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") },
		"no token":                     func(r *http.Request) { r.Header.Del(TokenHeader) },
		"no read token":                func(r *http.Request) { r.Header.Del("Cookie") },
		"wrong token":                  func(r *http.Request) { r.Header.Set(TokenHeader, "tok2") },
	}
	for name, spoil := range cases {
		r := ok()
		spoil(r)
		if g.writeRefusal(r) == "" {
			t.Errorf("%s: allowed", name)
		}
	}
	if (guard{loopback: false, token: "tok", readToken: "read"}).writeRefusal(ok()) == "" {
		t.Error("a non-loopback server allowed a write")
	}
}

// arrivedOn8737 is r as an http.Server hands it over when it arrived on
// 127.0.0.1:8737 (the guard checks that Host names that port).
func arrivedOn8737(r *http.Request) *http.Request {
	addr := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8737}
	return r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, addr))
}

// TestGuardReads holds the lines a reader who is not the user meets: the
// read token for everyone (other local users included), and on loopback
// the Host and Origin checks for a DNS-rebinding or cross-site page.
func TestGuardReads(t *testing.T) {
	req := func(target string, hdr ...string) *http.Request {
		r := arrivedOn8737(httptest.NewRequest("GET", target, nil))
		r.AddCookie(&http.Cookie{Name: "stratos_read_8737", Value: "read"})
		for i := 0; i+1 < len(hdr); i += 2 {
			r.Header.Set(hdr[i], hdr[i+1])
		}
		return r
	}
	loop := guard{loopback: true, token: "tok", readToken: "read", cookie: "stratos_read_8737"}
	allowed := map[string]*http.Request{
		"localhost":                req("http://localhost:8737/api/runs"),
		"own page's fetch":         req("http://127.0.0.1:8737/api/runs", "Origin", "http://127.0.0.1:8737", "Sec-Fetch-Site", "same-origin"),
		"typed into the address":   req("http://127.0.0.1:8737/", "Sec-Fetch-Site", "none", "Sec-Fetch-Mode", "navigate", "Sec-Fetch-Dest", "document"),
		"a link from another site": req("http://127.0.0.1:8737/", "Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "navigate", "Sec-Fetch-Dest", "document"),
		"a program, bearer token":  req("http://127.0.0.1:8737/api/runs", "Cookie", "", "Authorization", "Bearer read"),
		"the printed URL":          req("http://127.0.0.1:8737/?token=read", "Cookie", ""),
	}
	for name, r := range allowed {
		if why := loop.readRefusal(r); why != "" {
			t.Errorf("%s refused: %s", name, why)
		}
	}
	refused := map[string]*http.Request{
		"another local user (no token)": req("http://127.0.0.1:8737/api/runs", "Cookie", ""),
		"a wrong bearer token":          req("http://127.0.0.1:8737/api/runs", "Cookie", "", "Authorization", "Bearer nope"),
		"the token on the API":          req("http://127.0.0.1:8737/api/runs?token=read", "Cookie", ""),
		"another server's cookie":       req("http://127.0.0.1:8737/api/runs", "Cookie", "stratos_read_9999=read"),
		"DNS rebinding":                 req("http://evil.example:8737/api/runs"),
		"another port's Host":           req("http://127.0.0.1:9999/api/runs"),
		"rebinding, the page":           req("http://evil.example:8737/", "Sec-Fetch-Site", "same-origin"),
		"cross-site Origin":             req("http://127.0.0.1:8737/api/runs", "Origin", "http://evil.example"),
		"cross-site fetch":              req("http://127.0.0.1:8737/api/runs", "Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "no-cors"),
		"same-site other port":          req("http://127.0.0.1:8737/api/runs", "Sec-Fetch-Site", "same-site", "Sec-Fetch-Mode", "cors"),
		"cross-site frame":              req("http://127.0.0.1:8737/", "Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "navigate", "Sec-Fetch-Dest", "iframe"),
	}
	for name, r := range refused {
		if loop.readRefusal(r) == "" {
			t.Errorf("%s: allowed", name)
		}
	}

	// Off loopback Host proves nothing: any name of the machine with the
	// token is the user; without it, nobody.
	net := guard{loopback: false, token: "tok", readToken: "read", cookie: "stratos_read_8737"}
	if why := net.readRefusal(req("http://machine.example:8737/api/runs")); why != "" {
		t.Errorf("off loopback, the cookie under the machine's name refused: %s", why)
	}
	if net.readRefusal(req("http://machine.example:8737/api/runs", "Cookie", "")) == "" {
		t.Error("off loopback, a request without the token allowed")
	}
	if net.readRefusal(req("http://machine.example:8737/api/runs", "Origin", "http://evil.example")) == "" {
		t.Error("off loopback, a cross-origin request with the cookie allowed")
	}
	if (guard{loopback: true}).readRefusal(req("http://127.0.0.1:8737/api/runs", "Cookie", "", "Authorization", "Bearer ")) == "" {
		t.Error("an empty read token matched an unset one")
	}
}

func post(t *testing.T, url string, hdr map[string]string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, nil)
	req.Header.Set("Authorization", "Bearer "+readToken)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestStopRefusesCrossSiteAndStopsForItsOwnPage(t *testing.T) {
	f := newFixture(t, true)
	proc := sleeper(t)
	f.begin("20261203T090000Z-live0001", "w", proc.Process.Pid, t0)
	url := f.srv.URL + "/api/runs/20261203T090000Z-live0001/stop"

	code, body := post(t, url, map[string]string{"Origin": "http://evil.example", TokenHeader: f.token})
	if code != http.StatusForbidden || !strings.Contains(body, runapi.CodeServeWriteRefused) {
		t.Fatalf("cross-origin stop: %d %s", code, body)
	}
	if r, _ := f.store.Load("20261203T090000Z-live0001"); r.Status != records.StatusRunning {
		t.Fatalf("refused stop changed the run: %s", r.Status)
	}
	code, body = post(t, url, map[string]string{"Origin": f.srv.URL, TokenHeader: f.token})
	if code != http.StatusOK {
		t.Fatalf("own stop: %d %s", code, body)
	}
	// The stand-in process writes no final status, so the run ends crashed.
	if !strings.Contains(body, `"status":"crashed"`) {
		t.Errorf("stop answered %s", body)
	}
}

func TestNonLoopbackServerRefusesStopEvenWithToken(t *testing.T) {
	f := newFixture(t, false)
	proc := sleeper(t)
	f.begin("20261203T090000Z-live0001", "w", proc.Process.Pid, t0)
	code, body := post(t, f.srv.URL+"/api/runs/20261203T090000Z-live0001/stop", map[string]string{TokenHeader: f.token, "Authorization": "Bearer read-token"})
	if code != http.StatusForbidden || !strings.Contains(body, "non-loopback") {
		t.Fatalf("stop on a non-loopback server: %d %s", code, body)
	}
	jar, _ := cookiejar.New(nil)
	_, page := readStatus(t, &http.Client{Jar: jar}, f.srv.URL+"/?token=read-token", nil)
	if !strings.Contains(page, `content="false"`) || !strings.Contains(page, "read-only") {
		t.Error("the page of a non-loopback server does not say it is read-only")
	}
}

// readStatus GETs url with the given headers and returns the status and body.
func readStatus(t *testing.T, client *http.Client, url string, hdr map[string]string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := client.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16)) // a stream would not end
	return resp.StatusCode, string(b)
}

// TestForeignHostReadsNothing is the DNS-rebinding attack end to end: every
// route, the page and the streams included, answers 403 to a foreign Host
// and gives away neither a record nor the write token, even to a request
// that carries the read token (one leaked, say).
func TestForeignHostReadsNothing(t *testing.T) {
	f := newFixture(t, true)
	f.finished("20261203T090000Z-done0001", "secret-workflow", t0, ev(1, "agent.started", "a1"))
	paths := []string{"/", "/app/app.js", "/api/runs", "/api/runs/stream", "/api/runs/20261203T090000Z-done0001",
		"/api/runs/20261203T090000Z-done0001/events", "/nowhere"}
	for _, p := range paths {
		code, body := readStatus(t, http.DefaultClient, f.srv.URL+p, map[string]string{"Host": "evil.example:8737", "Authorization": "Bearer " + readToken})
		if code != http.StatusForbidden || !strings.Contains(body, runapi.CodeServeReadRefused) {
			t.Errorf("GET %s under a foreign Host: %d %.200s", p, code, body)
		}
		for _, secret := range []string{f.token, "secret-workflow", "done0001\"", "agent.started"} {
			if strings.Contains(body, secret) {
				t.Errorf("GET %s under a foreign Host leaks %q", p, secret)
			}
		}
		code, body = readStatus(t, http.DefaultClient, f.srv.URL+p, map[string]string{"Origin": "http://evil.example", "Authorization": "Bearer " + readToken})
		if code != http.StatusForbidden {
			t.Errorf("GET %s from a foreign Origin: %d %.200s", p, code, body)
		}
	}
	if code, body := readStatus(t, http.DefaultClient, f.srv.URL+"/api/runs/20261203T090000Z-done0001", map[string]string{"Authorization": "Bearer " + readToken}); code != http.StatusOK || !strings.Contains(body, "secret-workflow") {
		t.Errorf("own read: %d %.200s", code, body)
	}
}

// TestReadsNeedTheToken: the printed URL's token is traded for a cookie,
// which the page's own requests then carry; without it nothing is served,
// on loopback (another local user) as off it.
func TestReadsNeedTheToken(t *testing.T) {
	for _, loopback := range []bool{true, false} {
		f := newFixture(t, loopback)
		f.finished("20261203T090000Z-done0001", "secret-workflow", t0)
		for _, p := range []string{"/", "/api/runs", "/api/runs/20261203T090000Z-done0001", "/api/runs/stream", "/app/app.js"} {
			if code, body := readStatus(t, http.DefaultClient, f.srv.URL+p, nil); code != http.StatusForbidden || strings.Contains(body, "secret-workflow") {
				t.Errorf("loopback %v: GET %s without the read token: %d %.200s", loopback, p, code, body)
			}
		}
		jar, _ := cookiejar.New(nil)
		browser := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		code, _ := readStatus(t, browser, f.srv.URL+"/?token="+readToken, nil)
		if code != http.StatusSeeOther {
			t.Fatalf("loopback %v: the printed URL answered %d, want a redirect that drops the token", loopback, code)
		}
		u, _ := url.Parse(f.srv.URL)
		cookies := jar.Cookies(u)
		if len(cookies) != 1 || cookies[0].Name != "stratos_read_8737" {
			t.Fatalf("loopback %v: cookies after the first load: %v", loopback, cookies)
		}
		if code, body := readStatus(t, browser, f.srv.URL+"/api/runs", nil); code != http.StatusOK || !strings.Contains(body, "secret-workflow") {
			t.Errorf("loopback %v: the page's own read with the cookie: %d %.200s", loopback, code, body)
		}
	}
}

func TestPageURLCarriesTheReadToken(t *testing.T) {
	s, err := New(Options{Store: &runs.Store{Dir: t.TempDir()}, Loopback: true, ReadToken: "r"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.PageURL("127.0.0.1:8737"), "http://127.0.0.1:8737/?token=r"; got != want {
		t.Errorf("PageURL = %s, want %s", got, want)
	}
	s, _ = New(Options{Store: &runs.Store{Dir: t.TempDir()}, Loopback: true})
	if len(s.guard.readToken) != 32 || s.guard.readToken == s.guard.token {
		t.Errorf("a server given no read token has %q of its own (write token %q)", s.guard.readToken, s.guard.token)
	}
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.DefaultClient.Do(ownRequest(context.Background(), url))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func TestListFiltersAndRejectsUnknownStatus(t *testing.T) {
	f := newFixture(t, true)
	f.finished("20261203T090000Z-done0001", "hello", t0)
	f.finished("20261203T090001Z-done0002", "review", t0.Add(time.Second))
	var v listView
	if err := json.Unmarshal([]byte(get(t, f.srv.URL+"/api/runs?workflow=review")), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Runs) != 1 || v.Runs[0].Workflow != "review" {
		t.Errorf("workflow filter: %+v", v.Runs)
	}
	resp, err := http.DefaultClient.Do(ownRequest(context.Background(), f.srv.URL+"/api/runs?status=bogus"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("unknown status: HTTP %d", resp.StatusCode)
	}
}

// sseReader reads events from a stream.
type sseReader struct{ r *bufio.Reader }

type sseEvent struct{ name, id, data string }

// next is the next event that is not a timeline, which a stream sends
// whenever events came since its last (nextNamed reads those).
func (s sseReader) next(t testing.TB) sseEvent {
	t.Helper()
	for {
		if e := s.read(t); e.name != "timeline" {
			return e
		}
	}
}

// nextNamed is the next event called name, skipping the others.
func (s sseReader) nextNamed(t testing.TB, name string) sseEvent {
	t.Helper()
	for {
		if e := s.read(t); e.name == name {
			return e
		}
	}
}

func (s sseReader) read(t testing.TB) sseEvent {
	t.Helper()
	var e sseEvent
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			t.Fatalf("stream ended: %v (event so far %+v)", err, e)
		}
		line = strings.TrimRight(line, "\n")
		switch {
		case line == "":
			return e
		case strings.HasPrefix(line, "event: "):
			e.name = line[7:]
		case strings.HasPrefix(line, "id: "):
			e.id = line[4:]
		case strings.HasPrefix(line, "data: "):
			e.data = line[6:]
		}
	}
}

func openStream(t *testing.T, url string, hdr map[string]string) sseReader {
	t.Helper()
	// The deadline only keeps a broken stream from hanging the test.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	req := ownRequest(ctx, url)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	return sseReader{newReader(resp)}
}

func newReader(resp *http.Response) *bufio.Reader { return bufio.NewReader(resp.Body) }

func TestFinishedRunReplaysFromItsRecordAndEnds(t *testing.T) {
	f := newFixture(t, true)
	f.finished("20261203T090000Z-done0001", "hello", t0,
		ev(1, "agent.invocation.started", "run/agent-1"),
		ev(2, "something.new.kind", "run/agent-1"),
		ev(3, "agent.invocation.completed", "run/agent-1"))
	s := openStream(t, f.srv.URL+"/api/runs/20261203T090000Z/events", nil)
	first := s.next(t)
	if first.name != "run" || !strings.Contains(first.data, `"status":"succeeded"`) || !strings.Contains(first.data, `"output":{"ok":true}`) {
		t.Fatalf("first event %+v", first)
	}
	for i := 1; i <= 3; i++ {
		e := s.next(t)
		if e.name != "" || e.id != itoa(i) || !strings.Contains(e.data, `"sequence":`+itoa(i)) {
			t.Fatalf("event %d: %+v", i, e)
		}
	}
	if e := s.next(t); e.name != "run" {
		t.Fatalf("after the log: %+v", e)
	}
	if e := s.next(t); e.name != "end" {
		t.Fatalf("no end: %+v", e)
	}
}

func TestLiveRunStreamsEventsAsWrittenAndItsEnd(t *testing.T) {
	f := newFixture(t, true)
	r := f.begin("20261203T090000Z-live0001", "w", sleeper(t).Process.Pid, t0)
	s := openStream(t, f.srv.URL+"/api/runs/20261203T090000Z-live0001/events", nil)
	if e := s.next(t); e.name != "run" || !strings.Contains(e.data, `"status":"running"`) {
		t.Fatalf("first %+v", e)
	}
	f.appendEvents("20261203T090000Z-live0001", ev(1, "agent.invocation.started", "run/agent-1"))
	if e := s.next(t); e.id != "1" {
		t.Fatalf("live event %+v", e)
	}
	f.appendEvents("20261203T090000Z-live0001", ev(2, "agent.invocation.completed", "run/agent-1"))
	if e := s.next(t); e.id != "2" {
		t.Fatalf("second live event %+v", e)
	}
	if err := r.Finish(records.Final{Status: records.StatusFailed, ExitCode: 1, EndedAt: t0.Add(time.Second),
		Error: map[string]any{"message": "boom", "cause": []map[string]string{{"name": "Inner", "message": "root cause"}}}}); err != nil {
		t.Fatal(err)
	}
	e := s.next(t)
	if e.name != "run" || !strings.Contains(e.data, `"status":"failed"`) || !strings.Contains(e.data, "root cause") {
		t.Fatalf("final run %+v", e)
	}
	if e := s.next(t); e.name != "end" {
		t.Fatalf("no end %+v", e)
	}
}

func TestStreamResumesAfterLastEventID(t *testing.T) {
	f := newFixture(t, true)
	f.finished("20261203T090000Z-done0001", "hello", t0, ev(1, "a", "x"), ev(2, "b", "x"), ev(3, "c", "x"))
	s := openStream(t, f.srv.URL+"/api/runs/20261203T090000Z-done0001/events", map[string]string{"Last-Event-ID": "2"})
	s.next(t) // run
	if e := s.next(t); e.id != "3" {
		t.Fatalf("resumed at %+v, want id 3", e)
	}
}

func TestListStreamSendsANewRun(t *testing.T) {
	f := newFixture(t, true)
	f.finished("20261203T090000Z-done0001", "hello", t0)
	s := openStream(t, f.srv.URL+"/api/runs/stream", nil)
	if e := s.next(t); e.name != "runs" || strings.Count(e.data, "executionId") != 1 {
		t.Fatalf("first list %+v", e)
	}
	f.finished("20261203T090001Z-done0002", "hello", t0.Add(time.Second))
	if e := s.next(t); e.name != "runs" || strings.Count(e.data, "executionId") != 2 {
		t.Fatalf("list after a new run %+v", e)
	}
}

func TestPageIsSelfContained(t *testing.T) {
	f := newFixture(t, true)
	page := get(t, f.srv.URL+"/")
	if !strings.Contains(page, `content="secret-token"`) {
		t.Error("the page does not carry the token")
	}
	auth := map[string]string{"Authorization": "Bearer " + readToken}
	for asset, typ := range map[string]string{"/app/app.js": "text/javascript", "/app/style.css": "text/css", "/app/events.d.ts": "text/plain"} {
		if body := get(t, f.srv.URL+asset); len(body) < 100 {
			t.Errorf("%s: %q", asset, body)
		}
		req, _ := http.NewRequest(http.MethodGet, f.srv.URL+asset, nil)
		req.Header.Set("Authorization", auth["Authorization"])
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Header.Get("Content-Type"); !strings.HasPrefix(got, typ+";") {
			t.Errorf("%s: Content-Type %q, want %s", asset, got, typ)
		}
	}
	if strings.Contains(page, "https://") {
		t.Error("the page loads something from the network")
	}
	// Only the page's files: not the directory nor index.html (a redirect
	// to a 404 before), and a name that is not UTF-8 is not found (the
	// file system's refusal was a 500).
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, p := range []string{"/app/", "/app/%ff.js", "/app/nope.js", "/app/index.html"} {
		if code, body := readStatus(t, noRedirect, f.srv.URL+p, auth); code != http.StatusNotFound {
			t.Errorf("GET %s: %d %.100s", p, code, body)
		}
	}
}

// agentEvent is an event of agent run/<agent>'s first execute at second sec
// of the run.
func agentEvent(typ, agent string, sec int, details string) string {
	return `{"v":1,"type":"` + typ + `","timestamp":"2026-12-03T09:00:0` + itoa(sec) + `Z","executionId":"run","agentId":"run/` + agent +
		`","ids":{"invocationId":"run/` + agent + `/1"},"details":` + details + `}`
}

// A live run's stream sends its timeline as its events come, the rows
// `runs show --timeline` draws; once the run ended, the whole timeline,
// which GET /api/runs/<id>/timeline answers too.
func TestRunStreamSendsTheTimelineAsEventsCome(t *testing.T) {
	f := newFixture(t, true)
	id := "20261203T090000Z-live0001"
	r := f.begin(id, "w", sleeper(t).Process.Pid, t0)
	s := openStream(t, f.srv.URL+"/api/runs/"+id+"/events", nil)
	s.next(t) // run
	f.appendEvents(id, agentEvent("agent.invocation.started", "agent-1", 1, `{"name":"reviewer","promptKind":"text","promptPreview":"Review a.go"}`))
	tl := timelineOf(t, s.nextNamed(t, "timeline"))
	if len(tl.Rows) != 2 || tl.Rows[1].Prompt != "Review a.go" || tl.Rows[1].Status != "running" {
		t.Fatalf("timeline after the agent started: %+v", tl.Rows)
	}
	f.appendEvents(id, agentEvent("agent.invocation.completed", "agent-1", 3, `{"status":"failed","error":{"message":"boom"}}`))
	tl = timelineOf(t, s.nextNamed(t, "timeline"))
	if a := tl.Rows[1]; a.Status != "failed" || a.Error == nil || a.Error.Message != "boom" || a.EndMs-a.StartMs != 2000 {
		t.Fatalf("timeline after the agent failed: %+v", a)
	}
	if err := r.Finish(records.Final{Status: records.StatusFailed, ExitCode: 1, EndedAt: t0.Add(5 * time.Second)}); err != nil {
		t.Fatal(err)
	}
	final := s.nextNamed(t, "timeline")
	if tl := timelineOf(t, final); tl.Rows[0].Status != "failed" || tl.DurationMs != 4000 {
		t.Fatalf("final timeline: %+v", tl)
	}
	if e := s.next(t); e.name != "run" {
		t.Fatalf("after the final timeline: %+v", e)
	}
	var want, got bytes.Buffer
	_ = json.Compact(&want, []byte(final.data))
	_ = json.Compact(&got, []byte(get(t, f.srv.URL+"/api/runs/"+id+"/timeline")))
	if got.String() != want.String() {
		t.Errorf("GET timeline\n%s\nwant the stream's\n%s", got.String(), want.String())
	}
}

func timelineOf(t *testing.T, e sseEvent) runs.Timeline {
	t.Helper()
	var tl runs.Timeline
	if err := json.Unmarshal([]byte(e.data), &tl); err != nil {
		t.Fatalf("timeline %q: %v", e.data, err)
	}
	return tl
}

// What no route of the API takes, an unknown path or a method its path
// does not take, answers the error envelope (404, or 405 with Allow), as
// every other answer of the API does, not the mux's plain text.
func TestAPIAnswersJSONForWhatNoRouteTakes(t *testing.T) {
	f := newFixture(t, true)
	f.finished("20261203T090000Z-done0001", "hello", t0)
	for _, c := range []struct {
		method, path string
		status       int
		allow        string
	}{
		{"GET", "/api/nothing", http.StatusNotFound, ""},
		{"GET", "/api/runs/20261203T090000Z-done0001/nothing", http.StatusNotFound, ""},
		{"PUT", "/api/runs", http.StatusMethodNotAllowed, "GET"},
		{"DELETE", "/api/runs/20261203T090000Z-done0001", http.StatusMethodNotAllowed, "GET"},
		{"GET", "/api/runs/20261203T090000Z-done0001/stop", http.StatusMethodNotAllowed, "POST"},
	} {
		req := ownRequest(context.Background(), f.srv.URL+c.path)
		req.Method = c.method
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var env clierr.Envelope
		if resp.StatusCode != c.status || resp.Header.Get("Content-Type") != "application/json" || json.Unmarshal(body, &env) != nil ||
			env.Error.Code != runapi.CodeServeRequestInvalid || resp.Header.Get("Allow") != c.allow {
			t.Errorf("%s %s: %d %s Allow=%q %s; want %d, the error envelope (serve_request_invalid), Allow=%q",
				c.method, c.path, resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Allow"), body, c.status, c.allow)
		}
	}
}

// A line of events.jsonl may hold a carriage return where JSON allows
// white space; Server-Sent Events end a line there. Each message the
// stream sends must still be the whole event, read as a browser's
// EventSource reads it (CR, LF and CRLF all end a line).
func TestStreamSendsEventsWithCarriageReturnsWhole(t *testing.T) {
	f := newFixture(t, true)
	f.finished("20261203T090000Z-done0001", "hello", t0,
		ev(1, "agent.invocation.started", "run/agent-1"),
		strings.Replace(ev(2, "agent.invocation.completed", "run/agent-1"), `,"sequence"`, ",\r\"sequence\"", 1),
		ev(3, "workflow.log", "run/agent-1")+"\r")
	resp, err := http.DefaultClient.Do(ownRequest(context.Background(), f.srv.URL+"/api/runs/20261203T090000Z-done0001/events"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	// The lines as EventSource splits them, then its messages.
	lines := strings.Split(strings.ReplaceAll(strings.ReplaceAll(string(body), "\r\n", "\n"), "\r", "\n"), "\n")
	var messages []string
	var data []string
	for _, l := range lines {
		switch {
		case l == "":
			if len(data) > 0 {
				messages = append(messages, strings.Join(data, "\n"))
			}
			data = nil
		case strings.HasPrefix(l, "data: "):
			data = append(data, strings.TrimPrefix(l, "data: "))
		}
	}
	seen := 0
	for _, m := range messages {
		if !json.Valid([]byte(m)) {
			t.Errorf("a message is not the JSON it was: %q", m)
		}
		if strings.Contains(m, `"sequence":`) {
			seen++
		}
	}
	if seen != 3 {
		t.Errorf("%d events of 3 arrived whole: %q", seen, body)
	}
}
