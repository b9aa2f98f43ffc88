package claudecode

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/fakemodel"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
)

// BenchmarkTurn measures one prompt → result round trip on a running
// claude session (the first turn, which starts the CLI, is not timed)
// against a fake model that answers every request with a short text.
// scripts/bench-claude runs it beside the official TypeScript Agent SDK
// doing the same turns against the same fake ($STRATOS_BENCH_FAKE_URL).
//
// Metrics: median-ms/turn, first-turn-ms (spawn + initialize + one turn),
// claude-peak-MB (the CLI's VmHWM) and driver-peak-MB (this process's).
func BenchmarkTurn(b *testing.B) {
	bin := os.Getenv("STRATOS_TEST_CLAUDE")
	if bin == "" {
		b.Skip("STRATOS_TEST_CLAUDE is not set: no real claude CLI")
	}
	url := os.Getenv("STRATOS_BENCH_FAKE_URL")
	if url == "" {
		s, err := fakemodel.ParseScript([]byte(`{"turns":[],"fallback":{"reply":[{"text":"ok"}]}}`))
		if err != nil {
			b.Fatal(err)
		}
		srv, err := fakemodel.Start(s, fakemodel.Options{})
		if err != nil {
			b.Fatal(err)
		}
		defer srv.Close()
		url = srv.URL
	}
	dir := b.TempDir()
	for _, d := range []string{"home", "cfg", "work"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	env := benchEnv(dir, url, bin)
	spec := adapter.Spec{Name: "bench", Models: []string{"anthropic/claude-opus-4-7"}, WorkingDirectory: filepath.Join(dir, "work"),
		SystemPrompt: "You are a benchmark agent."}
	a, err := NewFactory(Options{Environ: func() []string { return env }})(spec, func(adapter.Event) {}, &adaptertest.Hooks{})
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close(context.Background())
	ctx := context.Background()
	start := time.Now()
	if err := a.Initialize(ctx); err != nil {
		b.Fatal(err)
	}
	if _, err := a.Execute(ctx, "turn 0"); err != nil {
		b.Fatal(err)
	}
	first := time.Since(start)
	lat := make([]float64, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		if _, err := a.Execute(ctx, fmt.Sprintf("turn %d", i+1)); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, float64(time.Since(t0).Microseconds())/1000)
	}
	b.StopTimer()
	b.ReportMetric(median(lat), "median-ms/turn")
	b.ReportMetric(float64(first.Milliseconds()), "first-turn-ms")
	b.ReportMetric(peakMB(a.(*session).proc.pid()), "claude-peak-MB")
	b.ReportMetric(peakMB(os.Getpid()), "driver-peak-MB")
}

func benchEnv(dir, url, bin string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "CLAUDECODE" || strings.HasPrefix(k, "ANTHROPIC_") || strings.HasPrefix(k, "CLAUDE_CODE_") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+filepath.Join(dir, "home"), "CLAUDE_CONFIG_DIR="+filepath.Join(dir, "cfg"),
		"ANTHROPIC_BASE_URL="+url, "ANTHROPIC_API_KEY=sk-ant-fake-000", "CLAUDE_CODE_MAX_RETRIES=1", EnvBinary+"="+bin)
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// peakMB is a process's peak resident set (VmHWM), in MiB.
func peakMB(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}
