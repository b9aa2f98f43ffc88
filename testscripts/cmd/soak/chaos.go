package main

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/stratoscli/stratos/stratos-run/records"
)

// Bounds of the chaos loop's waits (they measure nothing).
const (
	// appearBound is how long a strike waits for a process of its kind.
	appearBound = 60 * time.Second
	// endBound is how long a struck run may take to end by itself.
	endBound = 2 * time.Minute
	// maxSeconds is how long the chaos workflow works when no stop file
	// comes.
	maxSeconds = 90
	// undisturbed is how long the runs without a strike work before they
	// are told to stop.
	undisturbed = 5 * time.Second
	// stopAfter is how long after a strike a run that still runs is told
	// to stop: time for the run to find what the strike broke (a run
	// notices a dead process within a round, well under a second).
	stopAfter = 10 * time.Second
)

// chaosInput is the chaos workflow's input (workflows/chaos): it works in
// rounds until Stop exists, or for MaxSeconds.
type chaosInput struct {
	Agents     int    `json:"agents"`
	Stop       string `json:"stop"`
	MaxSeconds int    `json:"maxSeconds"`
}

// harnessModels is the model the chaos run's real agent uses per harness.
var harnessModels = map[string]string{
	"claude-code": "anthropic/claude-opus-4-7",
	"codex":       "openai/gpt-5",
	"opencode":    "openai/gpt-5",
}

// realOverride is the --overrides document that puts the chaos run's real
// agent on the chosen harness.
type realOverride struct {
	Agents struct {
		Real struct {
			Harness string `json:"harness"`
			Model   string `json:"model"`
		} `json:"real"`
	} `json:"agents"`
}

// strike is what an iteration did: the process struck, or nothing when the
// run ended before a process of the kind appeared.
type strike struct {
	PID    int
	Missed bool
	After  time.Duration
}

// chaosLoop is part (c): cfg.kills iterations, each starting the chaos
// workflow and striking one process of its tree (planIteration), then
// checking that nothing of the run is left running, no lock is held, and
// the record is readable with the status the strike calls for.
type chaosLoop struct {
	s   *stack
	rep *report
	cfg config

	overrides       string
	kills           map[string]int // by kind
	outcomes        map[string]int // kind -> status
	runRSS, hostRSS Series
	hostFDs         Series
	endAfter        map[Kind][]float64 // seconds from a strike to the run's end
}

const chaosPart = "chaos"

func chaosPartRun(ctx context.Context, s *stack, rep *report, cfg config) error {
	model, ok := harnessModels[cfg.chaosHarness]
	if !ok {
		return fmt.Errorf("unknown harness %q for the chaos run (claude-code, codex or opencode)", cfg.chaosHarness)
	}
	if os.Getenv(harnessBinaryVar[cfg.chaosHarness]) == "" {
		return fmt.Errorf("%s is not set: run `eval \"$(scripts/prepare-test-cache)\"` (scripts/soak does)", harnessBinaryVar[cfg.chaosHarness])
	}
	var o realOverride
	o.Agents.Real.Harness, o.Agents.Real.Model = cfg.chaosHarness, model
	ov, err := json.Marshal(o)
	if err != nil {
		return err
	}
	c := &chaosLoop{s: s, rep: rep, cfg: cfg, overrides: string(ov),
		kills: map[string]int{}, outcomes: map[string]int{}, endAfter: map[Kind][]float64{}}
	if err := c.undisturbed(ctx, "baseline"); err != nil {
		return err
	}
	fmt.Fprintf(s.log, "soak: chaos: seed %d, window %s; replay iteration I alone with: scripts/soak chaos --seed %d --window %s --first I --kills 1\n",
		cfg.seed, c.cfg.window, cfg.seed, c.cfg.window)
	t0 := time.Now()
	n := 0
	for i := cfg.first; i < cfg.first+cfg.kills && ctx.Err() == nil; i++ {
		if err := c.iteration(ctx, i); err != nil {
			return err
		}
		n++
	}
	rep.add(chaosPart, "iterations", "%d (seed %d, first %d, harness %s) in %.0f s", n, cfg.seed, cfg.first, cfg.chaosHarness, time.Since(t0).Seconds())
	rep.counts(chaosPart, "strikes by kind", c.kills)
	rep.counts(chaosPart, "outcomes (kind: status)", c.outcomes)
	rep.add(chaosPart, "strike to the run's end", "%s", endTimes(c.endAfter))
	rep.series(chaosPart, "stratos-run peak RSS (VmHWM) per run", c.runRSS, "MB", 10, "10 runs")
	rep.series(chaosPart, "agent-host peak RSS (VmHWM) per run", c.hostRSS, "MB", 10, "10 runs")
	rep.series(chaosPart, "agent-host peak fds per run", c.hostFDs, "fds", 10, "10 runs")
	if ctx.Err() == nil {
		if err := c.undisturbed(ctx, "recovery"); err != nil {
			rep.fault(chaosPart, "recovery", "%v", err)
		}
	}
	checkStore(s, rep, chaosPart)
	return nil
}

// iteration runs iteration i: plan, run and strike, checks, progress.
func (c *chaosLoop) iteration(ctx context.Context, i int) error {
	a := planIteration(c.cfg.seed, i, c.cfg.kinds, c.cfg.window, c.cfg.stale)
	marker := fmt.Sprintf("%s=chaos-%d", runVar, i)
	if a.Stale {
		if err := c.stamp(); err != nil {
			return err
		}
	}
	before, err := c.s.records()
	if err != nil {
		return err
	}
	faults := len(c.rep.faults)
	p, st, err := c.struckRun(ctx, i, a, marker)
	if err != nil {
		return err
	}
	if ctx.Err() != nil {
		// The soak was interrupted: the run was stopped by the soak, not by
		// the strike; only what it left running counts.
		if left := leftovers(marker, leftoverBound); left != "" {
			c.fault(i, a, "leftover", "processes of the run the soak stopped still running %s after it ended:\n%s", leftoverBound, left)
		}
		return nil
	}
	if left := leftovers(marker, leftoverBound); left != "" {
		c.fault(i, a, "leftover", "processes of the run still running %s after it ended:\n%s", leftoverBound, left)
	}
	if held, err := c.s.heldLocks(); err != nil || len(held) > 0 {
		c.fault(i, a, "lock", "locks still held after the run: %v (%v)", held, err)
	}
	status := c.checkRecord(i, a, st, p, before)
	if !st.Missed {
		c.endAfter[a.Kind] = append(c.endAfter[a.Kind], (p.wall - st.After).Seconds())
	}
	c.progress(i, a, st, p, status, len(c.rep.faults) > faults)
	return nil
}

// struckRun starts the run, strikes it and waits for its end, sampling its
// processes' peaks.
func (c *chaosLoop) struckRun(ctx context.Context, i int, a action, marker string) (*process, strike, error) {
	smp := startSampler(marker, c.cfg.interval, 0)
	p, stop, err := c.start(ctx, marker)
	if err != nil {
		smp.stop()
		return nil, strike{}, err
	}
	st := c.strike(ctx, p, a, marker)
	// A run the strike did not end (a watchdog struck, or nothing) stops
	// its work and ends as usual.
	if !p.wait(stopAfter) {
		if err := os.WriteFile(stop, nil, 0o644); err != nil {
			smp.stop()
			return nil, strike{}, err
		}
	}
	if !p.wait(endBound) {
		c.fault(i, a, "hung", "the run did not end within %s of the strike; killing it", endBound)
		killMarked(marker)
		<-p.done
	}
	_, peak := smp.stop()
	if ctx.Err() == nil {
		c.sample(peak)
	}
	return p, st, nil
}

// progress says on stderr what iteration i struck and how the run ended.
func (c *chaosLoop) progress(i int, a action, st strike, p *process, status string, faulty bool) {
	what := fmt.Sprintf("kill -9 %s pid %d at %.2fs", a.Kind, st.PID, st.After.Seconds())
	switch {
	case st.Missed:
		what = fmt.Sprintf("no %s appeared before the run ended", a.Kind)
	case a.Kind == KindSigterm:
		what = fmt.Sprintf("SIGTERM stratos-run pid %d at %.2fs", st.PID, st.After.Seconds())
	}
	if !st.Missed {
		what += fmt.Sprintf(", the run ended %.2fs later", (p.wall - st.After).Seconds())
	}
	stale, verdict := "", "ok"
	if a.Stale {
		stale = " (sources changed: builds first)"
	}
	if faulty {
		verdict = "FAULT"
	}
	fmt.Fprintf(c.s.log, "soak: chaos %d/%d (iteration %d, seed %d)%s: %s -> %s, exit %d: %s\n",
		i-c.cfg.first+1, c.cfg.kills, i, c.cfg.seed, stale, what, status, p.exitCode(), verdict)
}

// strike waits until a.At after the run's start, then strikes a process of
// a.Kind of the run (waiting for one to appear).
func (c *chaosLoop) strike(ctx context.Context, p *process, a action, marker string) strike {
	select {
	case <-time.After(time.Until(p.start.Add(a.At))):
	case <-p.done:
	case <-ctx.Done():
	}
	target := a.Kind
	sig := syscall.SIGKILL
	if a.Kind == KindSigterm {
		target, sig = KindRun, syscall.SIGTERM
	}
	deadline := time.Now().Add(appearBound)
	for time.Now().Before(deadline) {
		if ctx.Err() != nil {
			return strike{Missed: true}
		}
		select {
		case <-p.done:
			c.kills[string(a.Kind)+" (missed)"]++
			return strike{Missed: true}
		default:
		}
		ps := marked(marker)
		if targets := ofKind(ps, target); len(targets) > 0 {
			victim := targets[int(a.Pick)%len(targets)]
			at := time.Since(p.start)
			if syscall.Kill(victim.PID, sig) == nil {
				c.kills[string(a.Kind)]++
				return strike{PID: victim.PID, After: at}
			}
		}
		// Once node runs, the build is over: its processes are not coming.
		if a.building() && len(ofKind(ps, KindNode)) > 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.kills[string(a.Kind)+" (missed)"]++
	return strike{Missed: true}
}

// checkRecord reads the run's record as a user would and checks its status
// against the strike; it returns the status (or what stood for it).
func (c *chaosLoop) checkRecord(i int, a action, st strike, p *process, before []string) string {
	after, err := c.s.records()
	if err != nil {
		c.fault(i, a, "records-unreadable", "%v", err)
		return "?"
	}
	ids := newRecords(before, after)
	want := expected(a.Kind)
	if st.Missed {
		want = []string{records.StatusSucceeded}
	}
	switch {
	case len(ids) == 0 && recordOptional(a.Kind) && !st.Missed:
		c.outcomes[string(a.Kind)+": no record"]++
		return "no record (struck before it began)"
	case len(ids) != 1:
		c.fault(i, a, "records", "the run made %d records %v", len(ids), ids)
		return "?"
	}
	r, err := c.s.show(ids[0])
	if err != nil {
		c.fault(i, a, "record-unreadable", "%v", err)
		return "unreadable"
	}
	key := string(a.Kind)
	if st.Missed {
		key += " (missed)"
	}
	c.outcomes[key+": "+r.Status]++
	switch {
	case r.Status == records.StatusRunning:
		c.fault(i, a, "record-running", "run %s still says running after `stratos runs show` reconciled it", r.ExecutionID)
	case !slices.Contains(want, r.Status):
		c.fault(i, a, "status", "run %s is %s (error %q), want %s; stderr: %s", r.ExecutionID, r.Status, r.Code, strings.Join(want, " or "), tail(p.stderr.String(), 1500))
	case r.Status != records.StatusCrashed && (r.ExitCode == nil || *r.ExitCode != p.exitCode()):
		c.fault(i, a, "exit-code", "run %s exited %d, its record says %v", r.ExecutionID, p.exitCode(), r.ExitCode)
	}
	checkListed(c.s, c.rep, chaosPart, r)
	status := r.Status
	if r.Code != "" {
		status += " (" + r.Code + ")"
	}
	return status
}

// start starts the chaos workflow with the run's marker and returns it
// with its stop file.
func (c *chaosLoop) start(ctx context.Context, marker string) (*process, string, error) {
	stop := filepath.Join(c.s.work, "tmp", strings.ReplaceAll(marker, "=", "-")+".stop")
	in, err := json.Marshal(chaosInput{Agents: c.cfg.chaosAgents, Stop: stop, MaxSeconds: maxSeconds})
	if err != nil {
		return nil, "", err
	}
	p, err := c.s.start(ctx, []string{marker}, "run", "chaos", "--input", string(in), "--overrides", c.overrides)
	return p, stop, err
}

// undisturbed runs the chaos workflow without a strike, telling it to stop
// after a while; it must succeed and leave nothing behind: before the loop
// (the workflow works), and after it (whatever the loop killed, nothing it
// left stops the next run).
func (c *chaosLoop) undisturbed(ctx context.Context, name string) error {
	marker := runVar + "=chaos-" + name
	p, stop, err := c.start(ctx, marker)
	if err != nil {
		return err
	}
	if !p.wait(undisturbed) {
		if err := os.WriteFile(stop, nil, 0o644); err != nil {
			return err
		}
	}
	if !p.wait(endBound) {
		killMarked(marker)
		<-p.done
		return fmt.Errorf("the %s run did not end within %s of its stop file", name, endBound)
	}
	if p.err != nil {
		return fmt.Errorf("the %s run failed (exit %d): %s", name, p.exitCode(), tail(p.stderr.String(), 1500))
	}
	c.rep.add(chaosPart, name+" run", "succeeded in %.1f s (told to stop after %s)", p.wall.Seconds(), undisturbed)
	if left := leftovers(marker, leftoverBound); left != "" {
		c.rep.fault(chaosPart, "leftover", "the %s run left:\n%s", name, left)
	}
	return nil
}

// endTimes says, per kind struck, the median and the longest time from
// the strike to the run's end.
func endTimes(m map[Kind][]float64) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		xs := slices.Sorted(slices.Values(m[k]))
		parts = append(parts, fmt.Sprintf("%s median %.2f s, max %.2f s", k, xs[len(xs)/2], xs[len(xs)-1]))
	}
	if len(parts) == 0 {
		return "no strikes"
	}
	return strings.Join(parts, "; ")
}

func (c *chaosLoop) sample(peak map[Kind]usage) {
	x := float64(len(c.runRSS.X))
	if u, ok := peak[KindRun]; ok {
		c.runRSS.Add(x, float64(u.HWMKiB)/1024)
	}
	if u, ok := peak[KindAgentHost]; ok {
		c.hostRSS.Add(x, float64(u.HWMKiB)/1024)
		c.hostFDs.Add(x, float64(u.FDs))
	}
}

func (c *chaosLoop) fault(i int, a action, kind, format string, args ...any) {
	c.rep.fault(chaosPart, kind, "iteration %d (seed %d, %s at %s): %s", i, c.cfg.seed, a.Kind, a.At.Round(time.Millisecond), fmt.Sprintf(format, args...))
}

// stampLine is the line of the chaos workflows' sources the loop rewrites
// to make them stale: its number goes up by one each time.
var stampLine = regexp.MustCompile(`(?m)^(// Source stamp \(.*\): )(\d+)$`)

// stamp changes the sources of the chaos workflow and its child, so that
// the next run builds both first.
func (c *chaosLoop) stamp() error {
	for _, w := range []string{"chaos", "worker"} {
		path := filepath.Join(c.s.root, w, "workflow.ts")
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		m := stampLine.FindSubmatch(b)
		if m == nil {
			return fmt.Errorf("%s has no source stamp line", path)
		}
		n, err := strconv.Atoi(string(m[2]))
		if err != nil {
			return fmt.Errorf("%s: source stamp: %w", path, err)
		}
		b = stampLine.ReplaceAll(b, []byte("${1}"+strconv.Itoa(n+1)))
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
