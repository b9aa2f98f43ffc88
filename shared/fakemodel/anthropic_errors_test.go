package fakemodel

import (
	"context"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

func TestScriptedAPIErrors(t *testing.T) {
	srv := startFake(t, `{"turns":[
	  {"match":{"marker":"[nf]"},"error":{"kind":"not_found"}},
	  {"match":{"marker":"[529]"},"error":{"kind":"overloaded"}},
	  {"match":{"marker":"[429]"},"error":{"kind":"rate_limit","retryAfter":2,"headers":{"x-should-retry":"true"}}},
	  {"match":{"marker":"[401]"},"error":{"kind":"authentication"}},
	  {"match":{"marker":"[400]"},"error":{"kind":"invalid_request","message":"prompt is too long"}}
	]}`, Options{})
	cases := []struct {
		prompt  string
		status  int
		body    string
		headers map[string]string
	}{
		{"[nf] go", 404, `{"error":{"message":"model: claude-missing","type":"not_found_error"},"type":"error"}`, nil},
		{"[529] go", 529, `{"error":{"message":"Overloaded","type":"overloaded_error"},"type":"error"}`, nil},
		{"[429] go", 429, `{"error":{"message":"Number of request tokens has exceeded your per-minute rate limit","type":"rate_limit_error"},"type":"error"}`,
			map[string]string{"Retry-After": "2", "X-Should-Retry": "true"}},
		{"[401] go", 401, `{"error":{"message":"invalid x-api-key","type":"authentication_error"},"type":"error"}`, nil},
		{"[400] go", 400, `{"error":{"message":"prompt is too long","type":"invalid_request_error"},"type":"error"}`, nil},
	}
	for i, c := range cases {
		resp, body := post(t, srv.URL+"/v1/messages", messagesBody("claude-missing", c.prompt, true))
		if resp.StatusCode != c.status || string(body) != c.body || resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s: %d %s", c.prompt, resp.StatusCode, body)
		}
		for k, v := range c.headers {
			if resp.Header.Get(k) != v {
				t.Errorf("%s: header %s = %q, want %q", c.prompt, k, resp.Header.Get(k), v)
			}
		}
		if e := finished(t, srv, i+1); e.Outcome != OutcomeError || e.Status != c.status || e.Turn != i+1 {
			t.Errorf("%s: entry = %+v", c.prompt, e)
		}
	}
}

func TestMidStreamError(t *testing.T) {
	srv := startFake(t, `{"turns":[{"repeat":true,"error":{"kind":"overloaded","midStream":true}}]}`, Options{})
	resp, body := post(t, srv.URL+"/v1/messages", messagesBody("m", "x", true))
	evs := readEvents(t, body)
	if resp.StatusCode != 200 || !reflect.DeepEqual(eventNames(evs), []string{"message_start", "error"}) {
		t.Fatalf("%d %v", resp.StatusCode, eventNames(evs))
	}
	if !strings.Contains(evs[1].Data, `"overloaded_error"`) {
		t.Errorf("error event = %s", evs[1].Data)
	}
	if e := finished(t, srv, 1); e.Outcome != OutcomeError || e.Status != 200 {
		t.Errorf("entry = %+v", e)
	}
	// A non-streaming request gets the same error as an HTTP error.
	resp, _ = post(t, srv.URL+"/v1/messages", messagesBody("m", "x", false))
	if resp.StatusCode != 529 {
		t.Errorf("non-streaming status = %d", resp.StatusCode)
	}
}

func TestUnmatchedRequestFailsLoudly(t *testing.T) {
	srv := startFake(t, `{"turns":[{"match":{"model":"a"},"reply":[{"text":"only a"}]}]}`, Options{})
	resp, body := post(t, srv.URL+"/v1/messages", messagesBody("b", "hello b", true))
	if resp.StatusCode != 400 || !strings.Contains(string(body), `no scripted turn left for model \"b\", prompt \"hello b\"`) {
		t.Errorf("%d %s", resp.StatusCode, body)
	}
	if e := finished(t, srv, 1); e.Outcome != OutcomeUnmatched || e.Turn != 0 {
		t.Errorf("entry = %+v", e)
	}
	if got := srv.UnusedTurns(); !reflect.DeepEqual(got, []int{1}) {
		t.Errorf("unused = %v", got)
	}
}

func TestBadRequestsAreRejectedAndLogged(t *testing.T) {
	srv := startFake(t, `{"turns":[{"repeat":true,"reply":[{"text":"x"}]}]}`, Options{})
	cases := map[string]string{
		`{"model":`: "not a Messages API request",
		`{"messages":[{"role":"user","content":"x"}]}`:                        "model: field required",
		`{"model":"m","messages":[]}`:                                         "messages: at least one message",
		`{"model":"m","messages":[{"role":"bot","content":"x"}]}`:             `messages.0.role: unexpected value \"bot\"`,
		`{"model":"m","messages":[{"role":"user","content":5}]}`:              "messages.0.content: must be a string or an array",
		`{"model":"m","system":7,"messages":[{"role":"user","content":"x"}]}`: "system: must be",
	}
	seq := 0
	for body, want := range cases {
		seq++
		resp, got := post(t, srv.URL+"/v1/messages", body)
		if resp.StatusCode != 400 || !strings.Contains(string(got), want) || !strings.Contains(string(got), "invalid_request_error") {
			t.Errorf("%s: %d %s", body, resp.StatusCode, got)
		}
		if e := finished(t, srv, seq); e.Outcome != OutcomeError {
			t.Errorf("%s: entry = %+v", body, e)
		}
	}
}

func TestUnknownRoutesAndProbes(t *testing.T) {
	srv := startFake(t, `{"turns":[]}`, Options{})
	resp, err := http.Get(srv.URL + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 404 || !strings.Contains(string(body), "no route for GET /v1/models") {
		t.Errorf("%d %s", resp.StatusCode, body)
	}
	resp, err = http.Head(srv.URL + "/api/hello")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("HEAD status %d", resp.StatusCode)
	}
	// GET /v1/messages is not the API either.
	resp, err = http.Get(srv.URL + "/v1/messages")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 405 && resp.StatusCode != 404 {
		t.Errorf("GET /v1/messages status %d", resp.StatusCode)
	}
	es := srv.Log().Entries()
	if len(es) < 2 || es[0].Path != "/v1/models" || es[0].Outcome != OutcomeError || es[1].Method != "HEAD" {
		t.Errorf("entries = %+v", es)
	}
}

// A delay holds the response back until the client gives up; the log says so.
func TestDelayEndsWhenTheClientLeaves(t *testing.T) {
	srv := startFake(t, `{"turns":[{"delay":"1h","reply":[{"text":"never"}]}]}`, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/v1/messages",
		strings.NewReader(messagesBody("m", "wait", true)))
	done := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	entry(t, srv, 1) // the request arrived and is waiting
	cancel()
	if err := <-done; err == nil {
		t.Error("request completed despite the delay")
	}
	if e := finished(t, srv, 1); e.Outcome != OutcomeClientGone {
		t.Errorf("entry = %+v", e)
	}
}

// ChunkDelay waits between deltas: a client that stops reading after the
// first delta sees no more, and the log records that it left.
func TestChunkDelayStreamsSlowly(t *testing.T) {
	srv := startFake(t, `{"turns":[{"chunkDelay":"1h","reply":[{"text":"one two three"}]}]}`, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/v1/messages",
		strings.NewReader(messagesBody("m", "slow", true)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	buf := make([]byte, 4096)
	for !strings.Contains(got.String(), `"text":"one "`) {
		n, err := resp.Body.Read(buf)
		got.Write(buf[:n])
		if err != nil {
			t.Fatalf("stream ended early: %v\n%s", err, got.String())
		}
	}
	if strings.Contains(got.String(), "two") {
		t.Errorf("second delta arrived despite the chunk delay:\n%s", got.String())
	}
	cancel()
	resp.Body.Close()
	if e := finished(t, srv, 1); e.Outcome != OutcomeClientGone {
		t.Errorf("entry = %+v", e)
	}
}

// Closing the server ends a reply that is still being delayed.
func TestCloseEndsPendingReplies(t *testing.T) {
	s, _ := ParseScript([]byte(`{"turns":[{"delay":"1h","reply":[{"text":"never"}]}]}`))
	srv, err := Start(s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		resp, err := http.Post(srv.URL+"/v1/messages", "application/json", strings.NewReader(messagesBody("m", "x", true)))
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	entry(t, srv, 1)
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	<-done
	if e := srv.Log().Entries()[0]; e.Outcome != OutcomeServerClose {
		t.Errorf("entry = %+v", e)
	}
}
