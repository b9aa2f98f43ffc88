package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/stratos-run/records"
)

func ev(seq int, typ, agent string) string {
	return `{"type":"` + typ + `","timestamp":"2026-12-03T09:00:01Z","sequence":` + itoa(seq) + `,"agentId":"` + agent + `","executionId":"run"}`
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestGuardRefusesEveryKindOfForeignWrite(t *testing.T) {
	ok := func() *http.Request {
		r, _ := http.NewRequest("POST", "http://127.0.0.1:8737/api/runs/x/stop", nil)
		r.Header.Set(TokenHeader, "tok")
		r.Header.Set("Origin", "http://127.0.0.1:8737")
		return r
	}
	g := writeGuard{loopback: true, token: "tok"}
	if why := g.refusal(ok()); why != "" {
		t.Fatalf("own page refused: %s", why)
	}
	noOrigin := ok()
	noOrigin.Header.Del("Origin")
	if why := g.refusal(noOrigin); why != "" {
		t.Errorf("a client without Origin but with the token refused: %s", why)
	}
	cases := map[string]func(r *http.Request){
		"DNS rebinding (foreign Host)": func(r *http.Request) { r.Host = "evil.example:8737" },
		"cross-site Origin":            func(r *http.Request) { r.Header.Set("Origin", "http://evil.example") },
		"other port Origin":            func(r *http.Request) { r.Header.Set("Origin", "http://127.0.0.1:9999") },
		"no token":                     func(r *http.Request) { r.Header.Del(TokenHeader) },
		"wrong token":                  func(r *http.Request) { r.Header.Set(TokenHeader, "tok2") },
	}
	for name, spoil := range cases {
		r := ok()
		spoil(r)
		if g.refusal(r) == "" {
			t.Errorf("%s: allowed", name)
		}
	}
	if (writeGuard{loopback: false, token: "tok"}).refusal(ok()) == "" {
		t.Error("a non-loopback server allowed a write")
	}
}

func TestIsLoopback(t *testing.T) {
	for host, want := range map[string]bool{"127.0.0.1": true, "localhost": true, "::1": true, "[::1]:80": true, "127.1.2.3": true, "0.0.0.0": false, "192.168.1.2": false, "example.com": false} {
		if got := IsLoopback(host); got != want {
			t.Errorf("IsLoopback(%q) = %v", host, got)
		}
	}
}

func post(t *testing.T, url string, hdr map[string]string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, nil)
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
	code, body := post(t, f.srv.URL+"/api/runs/20261203T090000Z-live0001/stop", map[string]string{TokenHeader: f.token})
	if code != http.StatusForbidden || !strings.Contains(body, "non-loopback") {
		t.Fatalf("stop on a non-loopback server: %d %s", code, body)
	}
	page := get(t, f.srv.URL+"/")
	if !strings.Contains(page, `content="false"`) || !strings.Contains(page, "read-only") {
		t.Error("the page of a non-loopback server does not say it is read-only")
	}
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
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
	resp, err := http.Get(f.srv.URL + "/api/runs?status=bogus")
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

func (s sseReader) next(t testing.TB) sseEvent {
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
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
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
	for _, asset := range []string{"/app/app.js", "/app/style.css"} {
		if body := get(t, f.srv.URL+asset); len(body) < 100 {
			t.Errorf("%s: %q", asset, body)
		}
	}
	if strings.Contains(page, "https://") {
		t.Error("the page loads something from the network")
	}
}
