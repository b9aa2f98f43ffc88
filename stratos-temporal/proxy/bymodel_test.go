package proxy

import (
	"context"
	"slices"
	"testing"

	"github.com/stratoscli/stratos/stratos-agent/adapter/catalog"
)

type fakeCatalog struct {
	asked [][]string
	cands []catalog.Candidate
}

func (f *fakeCatalog) Candidates(_ context.Context, q catalog.Query) ([]catalog.Candidate, error) {
	f.asked = append(f.asked, q.Models)
	return f.cands, nil
}

// The harnesses of an agent's candidates, in their order, each once, with
// the registered harnesses' rules sent; asked once per model list.
func TestModelRoutesOrder(t *testing.T) {
	f := &fakeCatalog{cands: []catalog.Candidate{{Harness: "codex", Model: "openai/a"}, {Harness: "claude-code", Model: "anthropic/b"},
		{Harness: "opencode", Model: "openai/a"}, {Harness: "opencode", Model: "anthropic/b"}}}
	m := newModelRoutes(f)
	if m.harnessRules()["claude-code"].Name == "" {
		t.Errorf("no rules for claude-code: %v", m.rules)
	}
	for range 2 {
		if got := m.order(context.Background(), []string{"openai/a", "anthropic/b"}); !slices.Equal(got, []string{"codex", "claude-code", "opencode"}) {
			t.Errorf("order %v", got)
		}
	}
	if len(f.asked) != 1 {
		t.Errorf("the catalog was asked %d times, want once", len(f.asked))
	}
}
