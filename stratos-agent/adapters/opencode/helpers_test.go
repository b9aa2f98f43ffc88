package opencode

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/stratos-agent/adapter/catalog"
)

// opencodeBin is the real CLI under test: $STRATOS_TEST_OPENCODE, which
// scripts/prepare-test-cache sets to the binary of the pinned opencode-ai
// it installs.
func opencodeBin(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("STRATOS_TEST_OPENCODE")
	if bin == "" {
		t.Fatal("STRATOS_TEST_OPENCODE is not set: run `eval \"$(scripts/prepare-test-cache)\"`, which installs the pinned opencode-ai and sets it")
	}
	return bin
}

// fixedCatalog answers every model list with one candidate per model on
// provider, the native ID being the model ID's last segment.
type fixedCatalog struct{ provider string }

func (c fixedCatalog) Candidates(_ context.Context, q catalog.Query) ([]catalog.Candidate, error) {
	out := make([]catalog.Candidate, len(q.Models))
	for i, m := range q.Models {
		native := m[strings.LastIndex(m, "/")+1:]
		out[i] = catalog.Candidate{Harness: Harness, Model: m, Provider: c.provider, NativeID: native,
			Native: catalog.Native{Model: c.provider + "/" + native, ProviderID: c.provider}}
	}
	return out, nil
}

func (fixedCatalog) Providers(context.Context, string) (map[string]catalog.Provider, error) {
	return map[string]catalog.Provider{}, nil
}

// testLog logs at trace level into the test's output when
// OPENCODE_TEST_TRACE is set.
func testLog(t *testing.T) hclog.Logger {
	if os.Getenv("OPENCODE_TEST_TRACE") == "" {
		return hclog.NewNullLogger()
	}
	return hclog.New(&hclog.LoggerOptions{Level: hclog.Trace, Output: testWriter{t}})
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(b []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(b), "\n"))
	return len(b), nil
}
