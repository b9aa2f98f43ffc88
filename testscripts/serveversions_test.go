package testscripts

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/stratoscli/stratos/stratos-run/records"
	"github.com/stratoscli/stratos/stratos-run/runs"
	"github.com/stratoscli/stratos/stratos-run/serve"
)

// versionedEvents are the lines of events.jsonl that stratos-run's runs
// package keeps as test data: events of real runs in version 0 of the event
// vocabulary (written before lines carried a version), then the same events
// as version 1 writes them.
var versionedEvents = []string{"../stratos-run/runs/testdata/events-v0.jsonl", "../stratos-run/runs/testdata/events-v1.jsonl"}

// pageFigures is what the run page shows of the run's usage: each agent's
// tokens and cost, by agent ID, and the budget gauge.
type pageFigures struct {
	Agents map[string]string
	Budget string
}

// TestServeRunPageReadsEveryVersion serves a run whose events.jsonl mixes
// version 0 and version 1 lines. While the run runs, the page adds up each
// agent's tokens and cost and the budget's spending from the events
// themselves; once it has ended, it shows the record's roll-up (what `runs
// show` counts). Both give the same figures, each turn counted once per
// line (its usage event; the model.completed events beside it count
// nothing).
func TestServeRunPageReadsEveryVersion(t *testing.T) {
	chrome := findChromium()
	if chrome == "" {
		t.Skip("browser test of stratos serve skipped: no Chromium found; install it: " + chromiumInstall)
	}
	store := &runs.Store{Dir: filepath.Join(t.TempDir(), "runs")}
	id := "20261206T080000Z-vers0001"
	start := time.Date(2026, 12, 6, 8, 0, 0, 0, time.UTC)
	// The run's process is this test's: the run reads as running until it
	// is finished below.
	r, err := records.Begin(store.Dir, records.Invocation{ExecutionID: id, Workflow: "mixed", PID: os.Getpid(), StartedAt: start,
		Input: json.RawMessage(`{}`), Budget: &records.Budget{USD: 0.01}})
	if err != nil {
		t.Fatal(err)
	}
	var events []byte
	for _, f := range versionedEvents {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, b...)
	}
	if err := os.WriteFile(filepath.Join(r.Dir(), runs.EventsFile), events, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := serve.New(serve.Options{Store: store, Loopback: true})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	br := &browser{chrome: chrome, profile: filepath.Join(t.TempDir(), "chromium-profile")}
	t.Cleanup(br.close)
	if err := br.start(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(br.ctx, browserBound)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(s.PageURL(strings.TrimPrefix(srv.URL, "http://"))),
		chromedp.Navigate(srv.URL+"/#/run/"+id)); err != nil {
		t.Fatal(err)
	}
	lines := strings.Count(string(events), "\n")
	live := shownFigures(t, ctx, `document.getElementById("eventcount").textContent === "(`+strconv.Itoa(lines)+`)"`)

	if err := r.Finish(records.Final{Status: records.StatusSucceeded, EndedAt: start.Add(time.Minute), Output: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	final := shownFigures(t, ctx, `document.getElementById("status").textContent === "succeeded"`)
	if !equalFigures(live, final) {
		t.Errorf("while running, the page showed %+v; once ended, %+v", live, final)
	}
	// Claude Code's turn: 100 tokens in, 10 out, $0.00075 reported, in
	// each version; all turns: $0.0024 of the $0.01 budget.
	if got := final.Agents["20261206T075427Z-ba312d69/agent-1"]; got != "220 $0.0015" {
		t.Errorf("Claude Code's agent shows %q, want 220 tokens and $0.0015", got)
	}
	if final.Budget != "$0.0024 of $0.01 (24%)" {
		t.Errorf("the budget gauge shows %q, want $0.0024 of $0.01 (24%%)", final.Budget)
	}
}

// shownFigures waits until the page satisfies ready, then reads its figures
// once the frame drawing what it has received has run.
func shownFigures(t *testing.T, ctx context.Context, ready string) pageFigures {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](ready, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("waiting for the page (%s): %v", ready, err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[pageFigures](`new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))).then(() => {
		const agents = {};
		for (const a of document.querySelectorAll("#tree .agent")) agents[a.dataset.agent] = a.querySelector(".tok").textContent + " " + a.querySelector(".cost").textContent;
		const budget = document.querySelector("#budget [data-budget=USD]");
		return { agents, budget: budget ? budget.textContent : "" };
	})`, awaitPromise))
	if err != nil {
		t.Fatalf("reading the page's figures: %v", err)
	}
	return got
}

func equalFigures(a, b pageFigures) bool {
	if a.Budget != b.Budget || len(a.Agents) != len(b.Agents) {
		return false
	}
	for k, v := range a.Agents {
		if b.Agents[k] != v {
			return false
		}
	}
	return true
}
