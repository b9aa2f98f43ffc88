package ollama

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/contract/agentapi"
	"github.com/stratoscli/stratos/shared/fakemodel"
)

const inventory = `{"ollama": {"version": "0.12.9", "models": [
  {"name": "qwen3:8b", "numCtx": 65536, "numPredict": -1, "quantization": "Q8_0", "digest": "sha256:abc"},
  {"name": "llama3.2:latest", "contextLength": 131072},
  {"name": "gemma3:4b", "capabilities": ["completion", "vision"]},
  {"name": "embed:latest", "capabilities": ["embedding"]},
  {"name": "gpt-oss:120b-cloud", "remote": true}
]}}`

func fakeServer(t *testing.T, script string) Client {
	t.Helper()
	s, err := fakemodel.ParseScript([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := fakemodel.Start(s, fakemodel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	h, err := ParseHost(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return Client{Host: h}
}

func TestParseHost(t *testing.T) {
	for raw, want := range map[string]string{
		"http://127.0.0.1:11434":  "http://127.0.0.1:11434",
		"http://127.0.0.1:11434/": "http://127.0.0.1:11434",
		"https://ollama.lan":      "https://ollama.lan",
		"http://[::1]:11434":      "http://[::1]:11434",
	} {
		h, err := ParseHost(raw)
		if err != nil || h.String() != want {
			t.Errorf("ParseHost(%q) = %v, %v; want %s", raw, h, err, want)
		}
	}
	for raw, why := range map[string]string{
		"127.0.0.1:11434":           "scheme",
		"0.0.0.0":                   "scheme",
		"ftp://host":                "scheme",
		"http://user:secret@host:1": "credentials",
		"http://host:1/v1":          "path",
		"http://host:1?x=1":         "query",
		"http://host:1#frag":        "fragment",
		"http://":                   "no host",
	} {
		_, err := ParseHost(raw)
		var oe *Error
		if !errors.As(err, &oe) || oe.Code != CodeHostInvalid || !strings.Contains(err.Error(), why) {
			t.Errorf("ParseHost(%q) = %v; want %s about %s", raw, err, CodeHostInvalid, why)
		}
		if strings.Contains(errText(err), "secret") {
			t.Errorf("ParseHost(%q) leaks the password: %v", raw, err)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestHostFromEnv(t *testing.T) {
	h, err := HostFromEnv(func(string) string { return "" })
	if err != nil || h.String() != DefaultHost {
		t.Errorf("unset: %v %v", h, err)
	}
	_, err = HostFromEnv(func(string) string { return "localhost:11434" })
	if err == nil || !strings.Contains(err.Error(), "OLLAMA_HOST") {
		t.Errorf("bad value: %v", err)
	}
}

func TestNormalizeName(t *testing.T) {
	for in, want := range map[string]string{"qwen3": "qwen3:latest", "qwen3.5:9b": "qwen3.5:9b",
		"reg.example:5000/me/model": "reg.example:5000/me/model:latest", "me/m:v1": "me/m:v1",
		"hf.co/org/repo:Q4_K_M": "hf.co/org/repo:Q4_K_M", "anthropic/claude-opus-4-6": "anthropic/claude-opus-4-6:latest"} {
		if got, err := NormalizeName(in); err != nil || got != want {
			t.Errorf("NormalizeName(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "a b", "x:", ":x", "a:b:c", "http://x/y", "me/"} {
		if _, err := NormalizeName(bad); err == nil {
			t.Errorf("NormalizeName(%q) accepted", bad)
		}
	}
}

func TestInventory(t *testing.T) {
	c := fakeServer(t, inventory)
	v, err := c.Version(context.Background())
	if err != nil || v != "0.12.9" {
		t.Fatalf("version %q %v", v, err)
	}
	ms, err := c.Inventory(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 5 {
		t.Fatalf("got %d models", len(ms))
	}
	q := ms[0]
	if q.Name != "qwen3:8b" || q.Context() != 65536 || q.NumPredict != -1 || !q.HasNumPredict || q.Quantization != "Q8_0" || q.Digest != "sha256:abc" {
		t.Errorf("qwen3 = %+v", q)
	}
	if l := ms[1]; l.Context() != 131072 || l.HasNumPredict {
		t.Errorf("llama = %+v (context from the architecture limit)", l)
	}
	want := []bool{true, true, false, false, false}
	for i, m := range ms {
		if ok, why := m.Eligible(); ok != want[i] {
			t.Errorf("%s eligible = %v (%s)", m.Name, ok, why)
		}
	}
}

func TestReady(t *testing.T) {
	c := fakeServer(t, inventory)
	ms, err := c.Ready(context.Background(), []string{"qwen3:8b", "llama3.2"})
	if err != nil || len(ms) != 2 || ms[1].Name != "llama3.2:latest" {
		t.Fatalf("Ready = %+v, %v", ms, err)
	}
	_, err = c.Ready(context.Background(), []string{"qwen3:8b", "mistral", "gemma3:4b"})
	var oe *Error
	if !errors.As(err, &oe) || oe.Code != CodeModelMissing || len(oe.Models) != 1 || oe.Models[0] != "mistral:latest" ||
		!strings.Contains(err.Error(), "Ollama at "+c.Host.String()) || !strings.Contains(err.Error(), "installed: ") {
		t.Errorf("missing: %v", err)
	}
	_, err = c.Ready(context.Background(), []string{"gemma3:4b", "gpt-oss:120b-cloud"})
	if !errors.As(err, &oe) || oe.Code != CodeModelIneligible || len(oe.Models) != 2 ||
		!strings.Contains(err.Error(), "lacks the tools capability") || !strings.Contains(err.Error(), "remote (cloud)") {
		t.Errorf("ineligible: %v", err)
	}
}

func TestNamesAreTheLocalTags(t *testing.T) {
	c := fakeServer(t, inventory)
	got, err := c.Names(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"qwen3:8b", "llama3.2:latest", "gemma3:4b", "embed:latest"}
	if !slices.Equal(got, want) {
		t.Errorf("Names = %v, want %v (the cloud entry left out)", got, want)
	}
}

func TestServerDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	h, _ := ParseHost("http://" + addr)
	_, err = Client{Host: h}.Ready(context.Background(), []string{"qwen3:8b"})
	var oe *Error
	if !errors.As(err, &oe) || oe.Code != CodeUnreachable || !strings.Contains(err.Error(), addr) {
		t.Errorf("down: %v", err)
	}
}

func TestNotOllama(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/tags" {
			w.Write([]byte(`<html>hello</html>`))
			return
		}
		http.Error(w, `{"error":"boom"}`, 500)
	}))
	defer srv.Close()
	h, _ := ParseHost(srv.URL)
	_, err := Client{Host: h}.Inventory(context.Background())
	var oe *Error
	if !errors.As(err, &oe) || oe.Code != CodeInventory || !strings.Contains(err.Error(), "not Ollama's JSON") {
		t.Errorf("html: %v", err)
	}
	_, err = Client{Host: h}.Version(context.Background())
	if !errors.As(err, &oe) || oe.Code != CodeInventory || !strings.Contains(err.Error(), "HTTP 500: boom") {
		t.Errorf("500: %v", err)
	}
}

// The CLI reports a bad OLLAMA_HOST with the contract's code.
func TestHostCodeMatchesContract(t *testing.T) {
	if CodeHostInvalid != agentapi.CodeOllamaHostInvalid {
		t.Errorf("%q != %q", CodeHostInvalid, agentapi.CodeOllamaHostInvalid)
	}
}
