package opencode

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
	"github.com/stratoscli/stratos/stratos-agent/adapter/catalog"
)

// opencodeBin is the real CLI under test: $STRATOS_TEST_OPENCODE, which
// scripts/prepare-test-cache sets to the binary of the pinned opencode-ai
// it installs.
func opencodeBin(t *testing.T) string {
	t.Helper()
	return adaptertest.CLI(t, "STRATOS_TEST_OPENCODE", "opencode-ai")
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

// testLog logs into the test's output when OPENCODE_TEST_TRACE is set.
func testLog(t *testing.T) hclog.Logger { return adaptertest.TraceLog(t, "OPENCODE_TEST_TRACE") }
