package testscripts

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/stratoscli/stratos/stratos-run/records"
	"github.com/stratoscli/stratos/stratos-run/runs"
	"github.com/stratoscli/stratos/stratos-run/serve"
)

// paintAgents is how many agents the benchmarked run holds (issue #18:
// "first meaningful paint for a run of 100 agents").
const paintAgents = 100

// BenchmarkServeFirstPaint loads the run page of a finished run of 100
// agents in headless Chromium, once per iteration, and reports medians over
// the loads (figures to compare, not limits):
//
//   - ms-tree-paint: from navigation start to the end of the first frame
//     that shows the whole tree, all 100 agents completed. This is the
//     meaningful paint: it is what the page is for; everything before it
//     shows a page still filling in.
//   - ms-first-contentful-paint: Chromium's first-contentful-paint, for
//     comparison; it is the header and "Loading…", not the run.
//
// The end of the tree's frame is taken as a task queued from the DOM
// mutation that drew the tree: it runs after that frame's style, layout and
// paint, which happen in the same task as the drawing.
//
//	go test -run '^$' -bench ServeFirstPaint -benchtime 11x .   (in testscripts)
//
// or scripts/bench-serve, which runs it with the server's memory benchmark.
func BenchmarkServeFirstPaint(b *testing.B) {
	chrome := findChromium()
	if chrome == "" {
		b.Skip("first-paint benchmark of stratos serve skipped: no Chromium found; install it: " + chromiumInstall)
	}
	br, url := serveHundredAgentRun(b, chrome)
	var tree, fcp []float64
	b.ResetTimer()
	for range b.N {
		t, f := loadRunPage(b, br, url)
		tree, fcp = append(tree, t), append(fcp, f)
	}
	b.StopTimer()
	b.ReportMetric(median(tree), "ms-tree-paint")
	b.ReportMetric(median(fcp), "ms-first-contentful-paint")
}

// serveHundredAgentRun records a finished run of 100 agents, serves it and
// starts Chromium with treePaintProbe in every page; it returns the browser
// and the run page's URL.
func serveHundredAgentRun(t testing.TB, chrome string) (*browser, string) {
	t.Helper()
	store := &runs.Store{Dir: filepath.Join(t.TempDir(), "runs")}
	id := writeHundredAgentRun(t, store.Dir)
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
	addProbe := func(ctx context.Context, t *chromedp.Target) (page.AddScriptToEvaluateOnNewDocumentResult, error) {
		return cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: treePaintProbe})
	}
	if _, err := chromedp.Run(br.ctx, addProbe); err != nil {
		t.Fatal(err)
	}
	// The printed URL's first load trades the read token for a cookie; the
	// loads measured then carry the cookie, as a user's do, and pay no
	// redirect.
	if _, err := chromedp.Run(br.ctx, chromedp.Navigate(s.PageURL(strings.TrimPrefix(srv.URL, "http://")))); err != nil {
		t.Fatal(err)
	}
	return br, srv.URL + "/#/run/" + id
}

// TestServeRunPageOfHundredAgents loads the page the benchmark loads and
// checks what it shows once the tree is painted: every agent completed,
// every event in the events panel (drawn a frame at a time), the panel
// scrolled to its last line.
func TestServeRunPageOfHundredAgents(t *testing.T) {
	chrome := findChromium()
	if chrome == "" {
		t.Skip("browser test of stratos serve skipped: no Chromium found; install it: " + chromiumInstall)
	}
	br, url := serveHundredAgentRun(t, chrome)
	loadRunPage(t, br, url)
	type shown struct {
		Agents, Lines int
		Count         string
		AtEnd         bool
	}
	// The last events may come a frame after the tree: wait for the count.
	ctx, cancel := context.WithTimeout(br.ctx, browserBound)
	defer cancel()
	got, err := chromedp.Run(ctx, chromedp.Poll[shown](`(() => {
		const box = document.getElementById("events");
		const count = document.getElementById("eventcount").textContent;
		return count === "(410)" ? { Agents: document.querySelectorAll("#tree .agent .s-completed").length, Lines: box.childElementCount, Count: count,
			AtEnd: box.scrollHeight > box.clientHeight && box.scrollTop + box.clientHeight >= box.scrollHeight - 4 } : null; })()`,
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(0)))
	if err != nil {
		t.Fatalf("waiting for the events panel to count 410 events: %v", err)
	}
	want := shown{Agents: paintAgents, Lines: 410, Count: "(410)", AtEnd: true}
	if got != want {
		t.Errorf("the run page shows %+v, want %+v", got, want)
	}
}

// treePaintProbe runs in every page before its own scripts. It watches the
// DOM; the first time the tree holds every agent completed, it queues a
// task, which runs once the frame with that tree has been painted, and
// keeps the time in window.__stratosTreePaint.
var treePaintProbe = fmt.Sprintf(`(() => {
  const want = %d;
  const seen = () => document.querySelectorAll("#tree .agent .s-completed").length >= want;
  const mo = new MutationObserver(() => {
    if (!seen()) return;
    mo.disconnect();
    setTimeout(() => { window.__stratosTreePaint = performance.now(); }, 0);
  });
  mo.observe(document, { childList: true, subtree: true });
})();`, paintAgents)

// paintsSeen is the two paint times once both are known, else null.
const paintsSeen = `window.__stratosTreePaint !== undefined && performance.getEntriesByName("first-contentful-paint").length > 0
	? { Tree: window.__stratosTreePaint, FCP: performance.getEntriesByName("first-contentful-paint")[0].startTime } : null`

// loadRunPage loads url from a blank page (so each load is a navigation,
// not a hash change) and returns the tree's paint and the first
// contentful paint, in milliseconds since navigation start.
func loadRunPage(b testing.TB, br *browser, url string) (tree, fcp float64) {
	b.Helper()
	ctx, cancel := context.WithTimeout(br.ctx, browserBound)
	defer cancel()
	type paints struct{ Tree, FCP float64 }
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(url)); err != nil {
		b.Fatalf("loading the run page: %v", err)
	}
	// A poll started as the page's document changes loses its context: it
	// is asked again of the new document.
	var got paints
	var err error
	for {
		got, err = chromedp.Run(ctx, chromedp.Poll[paints](paintsSeen, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(0)))
		if err == nil || ctx.Err() != nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		text, _ := chromedp.Run(br.ctx, chromedp.Evaluate[string](`location.href + ": " + document.body.innerText.slice(0, 400)`))
		b.Fatalf("loading the run page: %v; the page at %s", err, text)
	}
	return got.Tree, got.FCP
}

// writeHundredAgentRun records a finished run whose log has, per agent, its
// start, one usage report and its completion, a phase every ten agents and
// a log line each, as the agent host and the runtime write them (version 1
// of the event vocabulary); it returns the run's id.
func writeHundredAgentRun(b testing.TB, dir string) string {
	b.Helper()
	id := "20261203T090000Z-paint100"
	start := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	r, err := records.Begin(dir, records.Invocation{ExecutionID: id, Workflow: "fan-out", PID: os.Getpid(), StartedAt: start, Input: json.RawMessage(`{}`)})
	if err != nil {
		b.Fatal(err)
	}
	var log strings.Builder
	seq := 0
	line := func(at time.Time, typ, agent string, details any) {
		seq++
		d, _ := json.Marshal(details)
		fmt.Fprintf(&log, `{"v":1,"type":%q,"timestamp":%q,"sequence":%d,"executionId":%q,"workflow":"fan-out","agentId":%q,"details":%s}`+"\n",
			typ, at.Format(time.RFC3339Nano), seq, id, agent, d)
	}
	for i := range paintAgents {
		at := start.Add(time.Duration(i) * 50 * time.Millisecond)
		agent := fmt.Sprintf("%s/reviewer-%03d", id, i)
		if i%10 == 0 {
			line(at, "workflow.phase", "", map[string]any{"phase": fmt.Sprintf("batch %d", i/10)})
		}
		line(at, "agent.invocation.started", agent, map[string]any{"name": fmt.Sprintf("reviewer-%03d", i), "promptKind": "text", "configId": "reviewer"})
		line(at.Add(time.Second), "workflow.log", "", map[string]any{"message": fmt.Sprintf("reviewer %d looked at file %d", i, i)})
		line(at.Add(2*time.Second), "usage", agent, map[string]any{"inputTokens": 1200 + i, "outputTokens": 300, "cacheReadInputTokens": 0,
			"cacheCreationInputTokens": 0, "reasoningOutputTokens": 0, "costUsd": 0.0042, "costProvenance": "reported", "model": "claude-sonnet-4-5"})
		line(at.Add(3*time.Second), "agent.invocation.completed", agent, map[string]any{"status": "completed"})
	}
	if err := os.WriteFile(filepath.Join(r.Dir(), runs.EventsFile), []byte(log.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := r.Finish(records.Final{Status: records.StatusSucceeded, EndedAt: start.Add(time.Minute), Output: json.RawMessage(`{"reviewed":100}`)}); err != nil {
		b.Fatal(err)
	}
	return id
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
