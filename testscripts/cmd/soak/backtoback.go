package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/stratoscli/stratos/stratos-run/records"
)

// smallOutput is the small workflow's output (workflows/small): the
// reply, and the peak memory of the agent host and of node and the host's
// open descriptors as the workflow read them before its end.
type smallOutput struct {
	Reply       string `json:"reply"`
	HostPeakKiB int64  `json:"hostPeakKiB"`
	HostFDs     int    `json:"hostFDs"`
	NodePeakKiB int64  `json:"nodePeakKiB"`
}

// backToBack is part (b): cfg.runs runs of the small workflow, one after
// another. Each must succeed, leave no process behind and leave a
// succeeded record; per run it keeps the wall time, the peak memory
// (VmHWM) of stratos-run (sampled) and of node and the agent host, and the
// host's open descriptors (as the workflow reads them at its end), so that
// growth with the number of runs (and of records in ~/.stratos/runs) shows
// as a slope per 100 runs.
func backToBack(ctx context.Context, s *stack, rep *report, cfg config) error {
	b := &b2b{s: s, rep: rep, cfg: cfg, failures: map[string]int{}}
	t0 := time.Now()
	done := 0
	for i := range cfg.runs {
		if ctx.Err() != nil {
			break
		}
		if err := b.run(ctx, i); err != nil {
			return err
		}
		done++
	}
	rep.add(b2bPart, "runs", "%d of %d in %.0f s", done, cfg.runs, time.Since(t0).Seconds())
	rep.counts(b2bPart, "failures", b.failures)
	rep.series(b2bPart, "wall time per run", b.wall, "ms", 100, "100 runs")
	rep.series(b2bPart, "stratos-run peak RSS (VmHWM)", b.runRSS, "MB", 100, "100 runs")
	rep.series(b2bPart, "agent-host peak RSS (VmHWM)", b.hostRSS, "MB", 100, "100 runs")
	rep.series(b2bPart, "agent-host peak fds", b.hostFDs, "fds", 100, "100 runs")
	rep.series(b2bPart, "node peak RSS (VmHWM)", b.nodeRSS, "MB", 100, "100 runs")
	checkStore(s, rep, b2bPart)
	return nil
}

const b2bPart = "backtoback"

// b2b is the back-to-back part's state: the series per run and the
// failures by kind.
type b2b struct {
	s   *stack
	rep *report
	cfg config

	wall, runRSS, hostRSS, hostFDs, nodeRSS Series
	failures                                map[string]int
}

// run runs the small workflow for the i-th time and records what it saw.
func (b *b2b) run(ctx context.Context, i int) error {
	marker := fmt.Sprintf("%s=%s-%d", runVar, b2bPart, i)
	smp := startSampler(marker, b.cfg.b2bInterval, 0)
	p, err := b.s.start(ctx, []string{marker}, "run", "small", "--input", fmt.Sprintf(`{"n": %d}`, i))
	if err != nil {
		smp.stop()
		return err
	}
	<-p.done
	_, peak := smp.stop()
	x := float64(i)
	b.wall.Add(x, float64(p.wall.Microseconds())/1000)
	if u, ok := peak[KindRun]; ok {
		b.runRSS.Add(x, float64(u.HWMKiB)/1024)
	}
	out := b.check(i, p)
	if left := leftovers(marker, leftoverBound); left != "" {
		b.failures["leftover"]++
		b.rep.fault(b2bPart, "leftover", "run %d left processes running:\n%s", i, left)
	}
	if (i+1)%25 == 0 || i+1 == b.cfg.runs {
		fmt.Fprintf(b.s.log, "soak: %s: %d/%d runs, last %.0f ms, agent host peak %.1f MB\n", b2bPart, i+1, b.cfg.runs, p.wall.Seconds()*1000, float64(out.HostPeakKiB)/1024)
	}
	return nil
}

// check checks that run i succeeded with its own reply, and keeps the
// figures the workflow reported.
func (b *b2b) check(i int, p *process) smallOutput {
	var out smallOutput
	want := fmt.Sprintf("echo run %d", i)
	switch {
	case p.err != nil:
		b.failures["exit"]++
		b.rep.fault(b2bPart, "run-failed", "run %d exited %d: %s", i, p.exitCode(), tail(p.stderr.String(), 1000))
	case json.Unmarshal(p.stdout.Bytes(), &out) != nil || out.Reply != want:
		b.failures["output"]++
		b.rep.fault(b2bPart, "output", "run %d printed %s, want the reply %q", i, tail(p.stdout.String(), 300), want)
	default:
		x := float64(i)
		b.nodeRSS.Add(x, float64(out.NodePeakKiB)/1024)
		if out.HostPeakKiB > 0 {
			b.hostRSS.Add(x, float64(out.HostPeakKiB)/1024)
			b.hostFDs.Add(x, float64(out.HostFDs))
		}
	}
	return out
}

// checkStore checks the private ~/.stratos/runs after a part: every record
// readable with a final status, nothing registered as live, and reports how
// many records there are and how long `stratos runs list --json` takes
// over them.
func checkStore(s *stack, rep *report, part string) {
	ids, err := s.records()
	if err != nil {
		rep.fault(part, "records-unreadable", "%v", err)
		return
	}
	unfinished := 0
	statuses := map[string]int{}
	for _, id := range ids {
		st, err := readStatus(filepath.Join(s.home, ".stratos", "runs", id))
		statuses[st]++
		if err != nil || !finished(st) {
			unfinished++
			rep.fault(part, "record", "run %s: status %q (%v)", id, st, err)
		}
	}
	rep.counts(part, "records by status", statuses)
	if live := s.live(); len(live) > 0 {
		rep.fault(part, "live-entry", "runs still registered as live: %v", live)
	}
	// The first listing after the runs brings the list's index up to date,
	// the second reads it.
	var took [2]time.Duration
	for i := range took {
		t0 := time.Now()
		if _, err := s.output("runs", "list", "--json"); err != nil {
			rep.fault(part, "list", "%v", err)
		}
		took[i] = time.Since(t0)
	}
	rep.add(part, "records", "%d in ~/.stratos/runs, %d not finished; runs list --json over them %.0f ms, again %.0f ms",
		len(ids), unfinished, took[0].Seconds()*1000, took[1].Seconds()*1000)
}

// readStatus reads a record's status.json as it is on disk (no
// reconciliation): what the run itself wrote last.
func readStatus(dir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, records.StatusFile))
	if err != nil {
		return "", err
	}
	var st records.Status
	if err := json.Unmarshal(b, &st); err != nil {
		return "", err
	}
	return st.Status, nil
}
