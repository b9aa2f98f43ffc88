package opencode

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// An answer over the client's bound is refused, not read into memory.
func TestClientRefusesAnOversizedAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"big":"` + strings.Repeat("x", 200) + `"}`))
	}))
	t.Cleanup(srv.Close)
	c := newClient(srv.URL, "pw", "/w")
	var out map[string]string
	if err := c.call(t.Context(), http.MethodGet, "/x", nil, &out); err != nil {
		t.Fatalf("an answer under the bound: %v", err)
	}
	c.maxReply = 100
	err := c.call(t.Context(), http.MethodGet, "/x", nil, &out)
	if err == nil || !strings.Contains(err.Error(), "larger than 100 bytes") {
		t.Fatalf("err = %v, want the answer refused as larger than 100 bytes", err)
	}
}
