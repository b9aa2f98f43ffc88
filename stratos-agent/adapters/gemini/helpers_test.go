package gemini

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/fakemodel"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
	"github.com/stratoscli/stratos/stratos-agent/adapter/catalog"
	"github.com/stratoscli/stratos/stratos-agent/adapter/mcpconfig"
)

// geminiBin is the pinned Gemini CLI of the test cache.
func geminiBin(t *testing.T) string {
	t.Helper()
	return adaptertest.CLI(t, "STRATOS_TEST_GEMINI", "@google/gemini-cli")
}

func testLog(t *testing.T) hclog.Logger { return adaptertest.TraceLog(t, "GEMINI_TEST_TRACE") }

// fixedCatalog answers every model with one candidate whose native ID is
// the model ID's last segment (test models are not in the real catalog).
type fixedCatalog struct{}

func (fixedCatalog) Candidates(_ context.Context, q catalog.Query) ([]catalog.Candidate, error) {
	out := make([]catalog.Candidate, len(q.Models))
	for i, m := range q.Models {
		native := m[strings.LastIndex(m, "/")+1:]
		out[i] = catalog.Candidate{Harness: Harness, Model: m, Provider: "google", NativeID: native, Native: catalog.Native{Model: native}}
	}
	return out, nil
}

// bed is one test against the real CLI: the kit's bed with the fake
// Gemini API at GOOGLE_GEMINI_BASE_URL.
type bed struct{ *adaptertest.Bed }

// geminiBed points the CLI at the fake, with a fake API key when withKey.
func geminiBed(t *testing.T, script fakemodel.Script, withKey bool) *bed {
	t.Helper()
	bin := geminiBin(t)
	b := adaptertest.NewBed(t, script)
	b.Env = append(b.Env, EnvBinary+"="+bin, "GOOGLE_GEMINI_BASE_URL="+b.Server.URL)
	if withKey {
		b.Env = append(b.Env, "GEMINI_API_KEY=fake-gemini-key-000")
	}
	return &bed{b}
}

// options bind the adapter to the bed: its environment, a catalog that
// knows the test models, no MCP server.
func (b *bed) options() Options {
	return Options{Log: testLog(b.T), Environ: b.Environ, Catalog: fixedCatalog{},
		MCPServers: func(string, []string) ([]mcpconfig.Server, error) { return nil, nil }}
}
