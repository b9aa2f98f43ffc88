package budget

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/stratos-run/records"
	"github.com/stratoscli/stratos/stratos-run/runs"
)

func TestFromManifestAndFlags(t *testing.T) {
	l, err := FromManifest(map[string]any{"usd": 2.5, "tokens": 1000}, "w.yaml")
	if err != nil || l != (Limits{USD: 2.5, Tokens: 1000}) {
		t.Fatalf("%+v, %v", l, err)
	}
	if l, _ = l.Override(Flags{Tokens: ptr[int64](50)}); l != (Limits{USD: 2.5, Tokens: 50}) {
		t.Errorf("the tokens flag did not win field by field: %+v", l)
	}
	for _, bad := range []any{"cheap", map[string]any{"usd": -1}, map[string]any{"usd": 0}, map[string]any{"usd": math.NaN()},
		map[string]any{"usd": math.Inf(1)}, map[string]any{"tokens": 1.5}, map[string]any{"tokens": 0}, map[string]any{"dollars": 3}} {
		if _, err := FromManifest(bad, "w.yaml"); clierr.As(err).Code != runapi.CodeBudgetInvalid || clierr.As(err).Exit != clierr.ExitUsage {
			t.Errorf("FromManifest(%v) = %v", bad, err)
		}
	}
}

// A given flag sets a limit or is refused: zero, negative, NaN and
// infinite values never mean "unlimited".
func TestFlagsThatSetNoLimitAreRefused(t *testing.T) {
	for _, f := range []Flags{
		{USD: ptr(0.0)}, {USD: ptr(-1.0)}, {USD: ptr(math.NaN())}, {USD: ptr(math.Inf(1))}, {USD: ptr(math.Inf(-1))},
		{Tokens: ptr[int64](0)}, {Tokens: ptr[int64](-5)},
	} {
		_, err := (Limits{USD: 1, Tokens: 10}).Override(f)
		if ce := clierr.As(err); err == nil || ce.Code != runapi.CodeBudgetInvalid || ce.Exit != clierr.ExitUsage ||
			!strings.Contains(ce.Message, "leave the flag out for no limit") {
			t.Errorf("Override(%s) = %v; want budget_invalid, exit 2", flagText(f), err)
		}
	}
	if l, err := (Limits{USD: 1}).Override(Flags{}); err != nil || l != (Limits{USD: 1}) {
		t.Errorf("no flags changed the limits: %+v, %v", l, err)
	}
}

func ptr[T any](v T) *T { return &v }

func flagText(f Flags) string {
	if f.USD != nil {
		return fmt.Sprintf("usd %v", *f.USD)
	}
	return fmt.Sprintf("tokens %d", *f.Tokens)
}

func usage(tokens int64, usd float64, unknown int) records.Spent {
	return records.Spent{Turns: 1, Tokens: tokens, USD: usd, UnknownCostTurns: unknown}
}

func TestCrossingIsAboveTheLimit(t *testing.T) {
	l := Limits{USD: 1, Tokens: 100}
	for _, c := range []struct {
		spent records.Spent
		want  string
	}{
		{usage(100, 1, 0), ""},
		{usage(101, 0, 1), "101 tokens of a 100-token budget"},
		{usage(5, 1.5, 0), "$1.5000 of a $1.0000 budget"},
		{usage(200, 2, 0), "200 tokens of a 100-token budget and $2.0000 of a $1.0000 budget"},
	} {
		if got := l.crossed(c.spent); got != c.want {
			t.Errorf("crossed(%+v) = %q, want %q", c.spent, got, c.want)
		}
	}
	e := Exceeded(l, usage(101, 0, 1), "w")
	if e.Code != runapi.CodeBudgetExceeded || e.Exit != clierr.ExitFailed || !strings.Contains(e.Message, "1 turn(s) reported no cost") {
		t.Errorf("Exceeded = %+v", e)
	}
}

func TestWatcherCancelsOnceTheLogCrossesTheBudget(t *testing.T) {
	path := filepath.Join(t.TempDir(), runs.EventsFile)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := Watch(ctx, path, Limits{Tokens: 100}, records.Spent{}, time.Millisecond, cancel)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.WriteString(`{"type":"usage","details":{"inputTokens":60}}` + "\n")
	f.WriteString(`{"type":"model.completed","details":{"inputTokens":600}}` + "\n")
	f.WriteString(`{"type":"usage","details":{"inputTokens":50,"costUsd":0.1}}` + "\n")
	<-ctx.Done() // cancelled by the watcher, or the test times out
	spent, crossed := w.Stop()
	if !crossed || spent.Tokens != 110 || spent.Turns != 2 {
		t.Errorf("spent %+v, crossed %v", spent, crossed)
	}
}

// A resumed run's budget counts what the executions it resumes spent.
func TestWatcherCountsWhatTheResumedChainSpent(t *testing.T) {
	path := filepath.Join(t.TempDir(), runs.EventsFile)
	if err := os.WriteFile(path, []byte(`{"v":1,"type":"usage","details":{"inputTokens":20,"costUsd":0.1}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := Watch(ctx, path, Limits{Tokens: 100}, records.Spent{Tokens: 90, Turns: 3, USD: 0.5}, time.Millisecond, cancel)
	<-ctx.Done() // cancelled by the watcher, or the test times out
	spent, crossed := w.Stop()
	if want := (records.Spent{Tokens: 110, Turns: 4, USD: 0.6}); !crossed || spent != want {
		t.Errorf("spent %+v, crossed %v; want %+v, crossed", spent, crossed, want)
	}
}

func TestPricedTurnsCountAgainstTheUSDLimit(t *testing.T) {
	var u runs.Usage
	u.AddEvent([]byte(`{"type":"usage","details":{"inputTokens":10,"outputTokens":10,"costUsd":0.3,"costProvenance":"priced"}}`))
	if got := (Limits{USD: 0.25}).crossed(runs.SpentOf(u)); got != "$0.3000 of a $0.2500 budget" {
		t.Fatalf("crossed = %q, want the priced $0.30 over the $0.25 limit", got)
	}
}

// testdata/usage-v0-v1.jsonl holds the usage lines of three real turns
// (Claude Code's, reported; Codex's and OpenCode's, priced) in version 0
// of the event vocabulary, each followed by the same turn as version 1
// writes it: the budget counts every line of either version.
func TestWatcherCountsUsageOfEveryVersion(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "usage-v0-v1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), runs.EventsFile)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := Watch(ctx, path, Limits{USD: 0.0023}, records.Spent{}, time.Millisecond, cancel)
	<-ctx.Done() // cancelled by the watcher, or the test times out
	spent, crossed := w.Stop()
	if !crossed || spent.Turns != 6 || spent.Tokens != 660 || spent.USD != 0.0024 {
		t.Errorf("spent %+v, crossed %v; want 6 turns, 660 tokens, $0.0024 (4 turns priced), crossed", spent, crossed)
	}
}

// Usage written after the watcher's last look, before the run ended on
// its own, still counts: Stop reads it.
func TestStopReadsWhatTheLastLookMissed(t *testing.T) {
	path := filepath.Join(t.TempDir(), runs.EventsFile)
	ctx, cancel := context.WithCancel(context.Background())
	w := Watch(ctx, path, Limits{Tokens: 100}, records.Spent{}, time.Hour, func() {})
	time.Sleep(50 * time.Millisecond) // its first look, at the start, saw nothing
	if err := os.WriteFile(path, []byte(`{"v":1,"type":"usage","details":{"inputTokens":70,"outputTokens":40}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cancel() // the run ended before the watcher looked again
	spent, crossed := w.Stop()
	if !crossed || spent.Tokens != 110 {
		t.Errorf("spent %+v, crossed %v; want 110 tokens, crossed", spent, crossed)
	}
}
