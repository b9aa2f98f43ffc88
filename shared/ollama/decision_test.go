package ollama

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestParseBaseURL(t *testing.T) {
	for raw, want := range map[string]string{
		"http://127.0.0.1:11434":               "http://127.0.0.1:11434",
		"http://127.0.0.1:11434/":              "http://127.0.0.1:11434",
		"https://gateway.example/ollama":       "https://gateway.example/ollama",
		"https://gateway.example/team/ollama/": "https://gateway.example/team/ollama",
	} {
		h, err := ParseBaseURL(raw)
		if err != nil || h.String() != want {
			t.Errorf("ParseBaseURL(%q) = %v, %v; want %s", raw, h, err, want)
		}
	}
	if h, _ := ParseBaseURL("https://gateway.example/ollama"); h.URL("/api/chat") != "https://gateway.example/ollama/api/chat" {
		t.Errorf("URL under a prefix = %s", h.URL("/api/chat"))
	}
	for raw, why := range map[string]string{
		"not a url at all":                    "scheme",
		"127.0.0.1:11434":                     "scheme",
		"admin:secret@gateway.example/ollama": "scheme",
		"ftp://host":                          "scheme",
		"http://user:secret@host:1/x":         "credentials",
		"http://host:1/x?key=1":               "query",
		"http://host:1/x#frag":                "fragment",
		"http://":                             "no host",
		"http:opaque":                         "scheme",
		"http://host:1/%zz-secret-part":       "not a URL",
	} {
		_, err := ParseBaseURL(raw)
		var oe *Error
		if !errors.As(err, &oe) || oe.Code != CodeHostInvalid || !strings.Contains(err.Error(), why) {
			t.Errorf("ParseBaseURL(%q) = %v; want %s about %s", raw, err, CodeHostInvalid, why)
		}
		if strings.Contains(errText(err), "secret") {
			t.Errorf("ParseBaseURL(%q) leaks a secret: %v", raw, err)
		}
	}
}

// A decision needs only completion: a model without tools (which no agent
// may use) answers; a missing model names the installed ones, a cloud entry
// or a model without completion is ineligible.
func TestAnswerable(t *testing.T) {
	c := fakeServer(t, inventory)
	for _, name := range []string{"qwen3:8b", "llama3.2", "gemma3:4b"} {
		if m, err := c.Answerable(context.Background(), name); err != nil || !strings.HasPrefix(m.Name, strings.Split(name, ":")[0]) {
			t.Errorf("Answerable(%s) = %+v, %v", name, m, err)
		}
	}
	for name, want := range map[string]struct{ code, text string }{
		"mistral:7b":         {CodeModelMissing, "not installed: mistral:7b (installed: embed:latest, gemma3:4b, llama3.2:latest, qwen3:8b)"},
		"embed":              {CodeModelIneligible, "embed:latest cannot answer decisions: lacks the completion capability"},
		"gpt-oss:120b-cloud": {CodeModelIneligible, "a remote (cloud) entry"},
		"bad name":           {CodeInvalidName, "invalid model name"},
	} {
		_, err := c.Answerable(context.Background(), name)
		var oe *Error
		if !errors.As(err, &oe) || oe.Code != want.code || !strings.Contains(err.Error(), want.text) {
			t.Errorf("Answerable(%s) = %v; want %s with %q", name, err, want.code, want.text)
		}
	}
}

// Under a path prefix the inventory is read there.
func TestAnswerableUnderAPrefix(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /proxy/api/tags", func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"models": [{"name": "tiny:1b"}]}`))
	})
	mux.HandleFunc("POST /proxy/api/show", func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"capabilities": ["completion"]}`))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	h, err := ParseBaseURL(srv.URL + "/proxy/")
	if err != nil {
		t.Fatal(err)
	}
	if m, err := (Client{Host: h}).Answerable(context.Background(), "tiny:1b"); err != nil || m.Name != "tiny:1b" {
		t.Fatalf("Answerable under /proxy = %+v, %v", m, err)
	}
}
