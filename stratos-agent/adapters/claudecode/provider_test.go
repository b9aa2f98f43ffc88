package claudecode

import (
	"context"
	"slices"
	"testing"

	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
	"github.com/stratoscli/stratos/stratos-agent/adapter/catalog"
)

// providerLaunch initializes an adapter (with a stand-in binary: the
// backend flag makes the environment authenticating, so no CLI runs) and
// returns what its first process would be started with. The catalog is the
// real one (stratos-models, built by TestMain).
func providerLaunch(t *testing.T, provider string, env []string) launch {
	t.Helper()
	env = append(env, "PATH=/usr/bin:/bin", EnvBinary+"=true")
	a, err := NewFactory(Options{Environ: func() []string { return env }})(adapter.Spec{Name: "p", Provider: provider,
		Models: []string{"anthropic/claude-opus-4-7"}, WorkingDirectory: t.TempDir()}, func(adapter.Event) {}, &adaptertest.Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Initialize(ctx(t)); err != nil {
		t.Fatal(err)
	}
	s := a.(*session)
	t.Cleanup(func() { s.Close(ctx(t)) })
	return s.launchLocked()
}

func TestBackendFlagsAndNativeIDsComeFromTheCatalog(t *testing.T) {
	l := providerLaunch(t, "amazon-bedrock", nil)
	if l.model != "global.anthropic.claude-opus-4-7" || !slices.Contains(l.env, "CLAUDE_CODE_USE_BEDROCK=1") {
		t.Errorf("bedrock: model %q, env has flag: %v", l.model, slices.Contains(l.env, "CLAUDE_CODE_USE_BEDROCK=1"))
	}
	// No provider: the environment's backend is inspected.
	l = providerLaunch(t, "", []string{"CLAUDE_CODE_USE_BEDROCK=1"})
	if l.model != "global.anthropic.claude-opus-4-7" {
		t.Errorf("inspected bedrock: model %q", l.model)
	}
	// An explicit Anthropic provider clears an ambient backend flag.
	l = providerLaunch(t, "anthropic", []string{"CLAUDE_CODE_USE_BEDROCK=1", "ANTHROPIC_API_KEY=k"})
	if l.model != "claude-opus-4-7" || slices.Contains(l.env, "CLAUDE_CODE_USE_BEDROCK=1") {
		t.Errorf("anthropic: model %q, env %q", l.model, l.env)
	}
}

// candidatesOnly is a catalog that answers only for candidates, recording
// the queries: Claude Code's backend flags are its own registration's rules,
// so nothing else may be asked of stratos-models.
type candidatesOnly struct{ queries *[]catalog.Query }

func (c candidatesOnly) Candidates(_ context.Context, q catalog.Query) ([]catalog.Candidate, error) {
	*c.queries = append(*c.queries, q)
	env := Selection.Providers[q.Backend].Env
	return []catalog.Candidate{{Harness: Harness, Model: q.Models[0], Provider: q.Backend, NativeID: "n",
		Native: catalog.Native{Model: "n", Env: env}}}, nil
}

func TestBackendFlagsComeFromTheRegistration(t *testing.T) {
	var queries []catalog.Query
	env := []string{"PATH=/usr/bin:/bin", EnvBinary + "=true", "CLAUDE_CODE_USE_VERTEX=1"}
	a, err := NewFactory(Options{Environ: func() []string { return env }, Catalog: candidatesOnly{&queries}})(adapter.Spec{Name: "p",
		Models: []string{"anthropic/claude-opus-4-7"}, WorkingDirectory: t.TempDir()}, func(adapter.Event) {}, &adaptertest.Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Initialize(ctx(t)); err != nil {
		t.Fatal(err)
	}
	s := a.(*session)
	t.Cleanup(func() { s.Close(ctx(t)) })
	if len(queries) != 1 || queries[0].Backend != "google-vertex-anthropic" {
		t.Errorf("catalog queries = %+v, want one for the backend CLAUDE_CODE_USE_VERTEX selects", queries)
	}
	if l := s.launchLocked(); !slices.Contains(l.env, "CLAUDE_CODE_USE_VERTEX=1") {
		t.Errorf("launch env = %q, want the Vertex flag", l.env)
	}
}
