package gemini

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/fakemodel"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
)

// BenchmarkTurn measures one prompt → result round trip on a running
// gemini session (the first turn, which starts the CLI and its ACP
// session, is not timed) against a fake Gemini API that answers every
// request with a short text.
//
// Metrics: median-ms/turn and first-turn-ms (spawn, initialize,
// authenticate, session/new and one turn).
func BenchmarkTurn(b *testing.B) {
	bin := os.Getenv("STRATOS_TEST_GEMINI")
	if bin == "" {
		b.Skip("STRATOS_TEST_GEMINI is not set: no real Gemini CLI")
	}
	s, err := fakemodel.ParseScript([]byte(`{"turns":[],"fallback":{"reply":[{"text":"ok"}]}}`))
	if err != nil {
		b.Fatal(err)
	}
	srv, err := fakemodel.Start(s, fakemodel.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	dir := b.TempDir()
	work := filepath.Join(dir, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		b.Fatal(err)
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, EnvBinary + "=" + bin,
		"GOOGLE_GEMINI_BASE_URL=" + srv.URL, "GEMINI_API_KEY=fake-gemini-key-000"}
	spec := adapter.Spec{Name: "bench", Models: []string{"google/gemini-2.5-flash"}, WorkingDirectory: work}
	a, err := NewFactory(Options{Environ: func() []string { return env }, Catalog: fixedCatalog{}})(spec, func(adapter.Event) {}, noToolHooks{&adaptertest.Hooks{}})
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close(context.Background())
	ctx := context.Background()
	start := time.Now()
	if err := a.Initialize(ctx); err != nil {
		b.Fatal(err)
	}
	if _, err := a.Execute(ctx, "warm up"); err != nil {
		b.Fatal(err)
	}
	first := time.Since(start)
	turns := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		if _, err := a.Execute(ctx, "again"); err != nil {
			b.Fatal(err)
		}
		turns = append(turns, time.Since(t0))
	}
	b.StopTimer()
	sort.Slice(turns, func(i, j int) bool { return turns[i] < turns[j] })
	b.ReportMetric(float64(turns[len(turns)/2].Microseconds())/1000, "median-ms/turn")
	b.ReportMetric(float64(first.Milliseconds()), "first-turn-ms")
}
