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
	const part = "backtoback"
	var wall, runRSS, hostRSS, hostFDs, nodeRSS Series
	failures := map[string]int{}
	t0 := time.Now()
	done := 0
	for i := range cfg.runs {
		if ctx.Err() != nil {
			break
		}
		marker := fmt.Sprintf("%s=%s-%d", runVar, part, i)
		smp := startSampler(marker, cfg.b2bInterval, 0)
		p, err := s.start(ctx, []string{marker}, "run", "small", "--input", fmt.Sprintf(`{"n": %d}`, i))
		if err != nil {
			smp.stop()
			return err
		}
		<-p.done
		_, peak := smp.stop()
		done++
		x := float64(i)
		wall.Add(x, float64(p.wall.Microseconds())/1000)
		if u, ok := peak[KindRun]; ok {
			runRSS.Add(x, float64(u.HWMKiB)/1024)
		}
		var out smallOutput
		want := fmt.Sprintf("echo run %d", i)
		switch {
		case p.err != nil:
			failures["exit"]++
			rep.fault(part, "run-failed", "run %d exited %d: %s", i, p.exitCode(), tail(p.stderr.String(), 1000))
		case json.Unmarshal(p.stdout.Bytes(), &out) != nil || out.Reply != want:
			failures["output"]++
			rep.fault(part, "output", "run %d printed %s, want the reply %q", i, tail(p.stdout.String(), 300), want)
		default:
			nodeRSS.Add(x, float64(out.NodePeakKiB)/1024)
			if out.HostPeakKiB > 0 {
				hostRSS.Add(x, float64(out.HostPeakKiB)/1024)
				hostFDs.Add(x, float64(out.HostFDs))
			}
		}
		if left := leftovers(marker, leftoverBound); left != "" {
			failures["leftover"]++
			rep.fault(part, "leftover", "run %d left processes running:\n%s", i, left)
		}
		if (i+1)%25 == 0 || i+1 == cfg.runs {
			fmt.Fprintf(s.log, "soak: %s: %d/%d runs, last %.0f ms, agent host peak %.1f MB\n", part, i+1, cfg.runs, p.wall.Seconds()*1000, float64(out.HostPeakKiB)/1024)
		}
	}
	rep.add(part, "runs", "%d of %d in %.0f s", done, cfg.runs, time.Since(t0).Seconds())
	rep.counts(part, "failures", failures)
	rep.series(part, "wall time per run", wall, "ms", 100, "100 runs")
	rep.series(part, "stratos-run peak RSS (VmHWM)", runRSS, "MB", 100, "100 runs")
	rep.series(part, "agent-host peak RSS (VmHWM)", hostRSS, "MB", 100, "100 runs")
	rep.series(part, "agent-host peak fds", hostFDs, "fds", 100, "100 runs")
	rep.series(part, "node peak RSS (VmHWM)", nodeRSS, "MB", 100, "100 runs")
	checkStore(s, rep, part)
	return nil
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
	for _, id := range ids {
		st, err := readStatus(filepath.Join(s.home, ".stratos", "runs", id))
		if err != nil || !finished(st) {
			unfinished++
			rep.fault(part, "record", "run %s: status %q (%v)", id, st, err)
		}
	}
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
