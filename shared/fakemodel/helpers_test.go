package fakemodel

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"
)

// startFake runs script on a loopback port for the test's duration.
func startFake(t *testing.T, script string, opts Options) *Server {
	t.Helper()
	s, err := ParseScript([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := Start(s, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return srv
}

// messagesBody builds a minimal Messages API request.
func messagesBody(model, prompt string, stream bool) string {
	b, _ := json.Marshal(map[string]any{"model": model, "max_tokens": 1024, "stream": stream,
		"messages": []any{map[string]any{"role": "user", "content": prompt}}})
	return string(b)
}

func post(t *testing.T, url, body string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewBufferString(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Api-Key", "sk-ant-fake-secret")
	req.Header.Set("Anthropic-Version", "2023-06-01")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// decode parses a JSON document into a generic map.
func decode(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, s)
	}
	return m
}

// waitFor polls cond until it holds; it fails the test if it never does.
// It only waits for an event, it asserts nothing about time.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("gave up waiting for %s", what)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// entry returns log entry seq (1-based), waiting until it exists.
func entry(t *testing.T, s *Server, seq int) Entry {
	t.Helper()
	var e Entry
	waitFor(t, "log entry", func() bool {
		es := s.Log().Entries()
		if len(es) < seq {
			return false
		}
		e = es[seq-1]
		return true
	})
	return e
}

// finished returns log entry seq once its outcome is final.
func finished(t *testing.T, s *Server, seq int) Entry {
	t.Helper()
	var e Entry
	waitFor(t, "request outcome", func() bool {
		e = entry(t, s, seq)
		return e.Outcome != OutcomePending
	})
	return e
}

// clientWithHeaders posts with extra request headers.
type clientWithHeaders struct{ h map[string]string }

func (c *clientWithHeaders) post(url string, body io.Reader) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodPost, url, body)
	if err != nil {
		return nil, err
	}
	for k, v := range c.h {
		req.Header.Set(k, v)
	}
	return http.DefaultClient.Do(req)
}
