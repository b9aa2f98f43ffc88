package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/stratoscli/stratos/stratos-run/records"
)

// fanoutInput and fanoutOutput are the fanout workflow's input and output
// (workflows/fanout/workflow.ts).
type fanoutInput struct {
	ConfigID    string `json:"configId"`
	Agents      int    `json:"agents"`
	Turns       int    `json:"turns"`
	Concurrency int    `json:"concurrency"`
}

type fanoutOutput struct {
	Agents    int      `json:"agents"`
	Succeeded int      `json:"succeeded"`
	Turns     int      `json:"turns"`
	Errors    []string `json:"errors"`
}

// sampledKinds are the processes whose memory and descriptors a load run
// reports: the long-lived ones and, summed, the harness CLIs.
var sampledKinds = []Kind{KindRun, KindNode, KindAgentHost, KindHarness, KindMCP}

// fanout runs the fanout workflow once with in (and overrides, when not
// ""), sampling its processes, and reports under part: the agents that
// answered, the time, memory and descriptors over time, what the record
// says and what was left running.
func fanout(ctx context.Context, s *stack, rep *report, cfg config, part string, in fanoutInput, overrides string) error {
	marker := runVar + "=" + part
	input, err := json.Marshal(in)
	if err != nil {
		return err
	}
	before, err := s.records()
	if err != nil {
		return err
	}
	requests := len(s.fake.Log().Entries())
	fmt.Fprintf(s.log, "soak: %s: %d agents of %s, %d at a time, %d turn(s) each\n", part, in.Agents, in.ConfigID, in.Concurrency, in.Turns)
	args := []string{"run", "fanout", "--input", string(input)}
	if overrides != "" {
		args = append(args, "--overrides", overrides)
	}
	r, err := sampledRun(ctx, s, cfg, marker, args)
	if err != nil {
		return err
	}
	reportCPU(rep, part, r.cpu)
	rep.add(part, "agents", "%d of %s, %d at a time, %d turn(s) each", in.Agents, in.ConfigID, in.Concurrency, in.Turns)
	rep.add(part, "wall time", "%.1f s (%.1f agent turns/s)", r.p.wall.Seconds(), float64(in.Agents*in.Turns)/r.p.wall.Seconds())
	if in.ConfigID != "echo" {
		rep.add(part, "model requests", "%d", len(s.fake.Log().Entries())-requests)
	}
	checkFanoutOutput(rep, part, in, r.p)
	reportSeries(rep, part, r.series, r.peak, 60, "min")
	if rec, ok := checkRecord(s, rep, part, before, records.StatusSucceeded); ok {
		// Every agent's session was closed (ask closes its agent; the
		// others close with the run).
		if closed := rec.Events.ByType["agent.closed"]; closed != in.Agents {
			rep.fault(part, "sessions", "run %s recorded %d agent.closed events for %d agents", rec.ExecutionID, closed, in.Agents)
		}
	}
	if left := leftovers(marker, leftoverBound); left != "" {
		rep.fault(part, "leftover", "processes of the run still running after it ended:\n%s", left)
	}
	return nil
}

// sampled is a run with what its processes were sampled at.
type sampled struct {
	p      *process
	series map[Kind]*kindSeries
	peak   map[Kind]usage
	cpu    map[Kind]cpuUse
}

// sampledRun runs `stratos args...` to its end, sampling its processes
// (those that have run a second) and stopping it when the machine runs
// short of memory, which is an error.
func sampledRun(ctx context.Context, s *stack, cfg config, marker string, args []string) (sampled, error) {
	smp := startSampler(marker, cfg.interval, time.Second)
	runCtx, stopRun := context.WithCancel(ctx)
	defer stopRun()
	p, err := s.start(runCtx, []string{marker}, args...)
	if err != nil {
		smp.stop()
		return sampled{}, err
	}
	low := guardMemory(p, cfg.minAvailable, stopRun)
	<-p.done
	series, peak := smp.stop()
	if m := <-low; m > 0 {
		return sampled{}, fmt.Errorf("stopped the run: the machine's available memory fell to %d MB (-min-available %d MB); the harness processes held %.0f MB",
			m/1024, cfg.minAvailable/1024, float64(peak[KindHarness].RSSKiB)/1024)
	}
	return sampled{p: p, series: series, peak: peak, cpu: smp.cpuByKind()}, nil
}

// checkFanoutOutput checks that the run succeeded and every agent
// answered, and reports how many did.
func checkFanoutOutput(rep *report, part string, in fanoutInput, p *process) {
	var out fanoutOutput
	switch {
	case p.err != nil:
		rep.fault(part, "run-failed", "stratos run fanout exited %d: %s", p.exitCode(), tail(p.stderr.String(), 2000))
	case json.Unmarshal(p.stdout.Bytes(), &out) != nil:
		rep.fault(part, "output", "not the fanout output: %s", tail(p.stdout.String(), 500))
	default:
		rep.add(part, "answered", "%d agents, %d turns", out.Succeeded, out.Turns)
		if out.Succeeded != in.Agents {
			rep.fault(part, "agents-failed", "%d of %d agents failed: %s", in.Agents-out.Succeeded, in.Agents, strings.Join(out.Errors, "; "))
		}
	}
}

// guardMemory watches the machine's available memory while p runs, and
// stops p (stop cancels its context: SIGTERM) when it falls below
// minKiB, so that a fan-out too large for the machine does not bring the
// out-of-memory killer onto other programs. The channel gets the available
// memory that stopped the run, or 0, once p ended.
func guardMemory(p *process, minKiB int64, stop func()) <-chan int64 {
	out := make(chan int64, 1)
	go func() {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-p.done:
				out <- 0
				return
			case <-t.C:
			}
			if m, ok := availableKiB(); ok && m < minKiB {
				stop()
				<-p.done
				out <- m
				return
			}
		}
	}()
	return out
}

// reportCPU adds a row of the processor time each sampled kind used.
func reportCPU(rep *report, part string, use map[Kind]cpuUse) {
	var parts []string
	for _, k := range sampledKinds {
		if u, ok := use[k]; ok {
			parts = append(parts, fmt.Sprintf("%s %.1f s (%d processes, %.2f s each)", k, u.CPU.Seconds(), u.Processes, u.CPU.Seconds()/float64(u.Processes)))
		}
	}
	rep.add(part, "CPU time", "%s", strings.Join(parts, "; "))
}

// reportSeries adds the memory and descriptor rows of the sampled kinds.
func reportSeries(rep *report, part string, series map[Kind]*kindSeries, peak map[Kind]usage, per float64, perName string) {
	for _, k := range sampledKinds {
		ks := series[k]
		if ks == nil {
			continue
		}
		if k == KindHarness || k == KindMCP {
			rep.add(part, string(k)+" processes", "at most %d at once", peak[k].Count)
		}
		rep.series(part, string(k)+" RSS", ks.RSSMiB, "MB", per, perName)
		rep.series(part, string(k)+" fds", ks.FDs, "fds", per, perName)
	}
}

// checkRecord checks the one record made since before: readable by
// `stratos runs show --json`, with status want, listed alike by `stratos
// runs list --json`, and no longer registered as live. It returns the
// record when there was one to read.
func checkRecord(s *stack, rep *report, part string, before []string, want string) (record, bool) {
	after, err := s.records()
	if err != nil {
		rep.fault(part, "records-unreadable", "%v", err)
		return record{}, false
	}
	ids := newRecords(before, after)
	if len(ids) != 1 {
		rep.fault(part, "records", "one run made %d records: %v", len(ids), ids)
		return record{}, false
	}
	r, err := s.show(ids[0])
	if err != nil {
		rep.fault(part, "record-unreadable", "%v", err)
		return record{}, false
	}
	if r.Status != want {
		rep.fault(part, "status", "run %s is %s (%s), want %s", r.ExecutionID, r.Status, r.Code, want)
	}
	checkListed(s, rep, part, r)
	return r, true
}

// checkListed checks that `stratos runs list --json` gives r the status
// `runs show` gave it, and that r is no longer registered as live.
func checkListed(s *stack, rep *report, part string, r record) {
	if l, err := s.listed(r.ExecutionID); err != nil || l != r.Status {
		rep.fault(part, "list", "stratos runs list says %q of run %s, show says %q (%v)", l, r.ExecutionID, r.Status, err)
	}
	if slices.Contains(s.live(), r.ExecutionID) {
		rep.fault(part, "live-entry", "run %s is %s but still in ~/.stratos/runs/.live", r.ExecutionID, r.Status)
	}
}
