package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
)

// config is the command line.
type config struct {
	bin, work string
	parts     []string
	// check only parses the command line (scripts/soak checks it before
	// it builds anything).
	check bool

	agents, concurrency   int
	agentDelay            time.Duration
	realAgents, realTurns int
	harnesses             []string
	runs                  int

	kills        int
	seed         uint64
	first        int
	window       time.Duration
	stale        float64
	chaosHarness string
	chaosAgents  int
	kinds        []Kind

	interval, b2bInterval time.Duration
	modelDelay            time.Duration
	minAvailable          int64 // KiB
}

// knownParts are the parts a command line may name; all and smoke stand
// for several.
var knownParts = []string{"agents", "real", "backtoback", "chaos", "all", "smoke"}

// smokeCounts are smoke's counts, for the flags the command line does not
// set: a short pass that finds the gross faults in about a minute.
var smokeCounts = map[string]string{"agents": "20", "concurrency": "10", "agent-delay": "100ms", "runs": "5", "kills": "3"}

// parseArgs reads parts and flags in any order (scripts/soak chaos
// --kills 10 and scripts/soak --kills 10 chaos alike).
func parseArgs(args []string, stderr io.Writer) (config, error) {
	var c config
	var harnesses, kinds string
	fs := flag.NewFlagSet("soak", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.bin, "bin", "", "the directory of the Stratos binaries and stratos-fakemcp (required)")
	fs.StringVar(&c.work, "work", "", "the soak's work directory: project, HOME, TMPDIR (required)")
	fs.BoolVar(&c.check, "check", false, "only check the command line")
	fs.IntVar(&c.agents, "agents", 1000, "agents: agents in the one run")
	fs.IntVar(&c.concurrency, "concurrency", 50, "agents: agents at work at once")
	fs.DurationVar(&c.agentDelay, "agent-delay", 2*time.Second, "agents: how long each test agent takes to reply")
	fs.IntVar(&c.realAgents, "real-agents", 50, "real: agents at once on each harness")
	fs.IntVar(&c.realTurns, "real-turns", 2, "real: turns of each agent's conversation")
	fs.StringVar(&harnesses, "harnesses", "claude-code,codex,opencode", "real: the harnesses, comma-separated")
	fs.IntVar(&c.runs, "runs", 500, "backtoback: runs")
	fs.IntVar(&c.kills, "kills", 50, "chaos: iterations (one strike each)")
	fs.Uint64Var(&c.seed, "seed", 0, "chaos: the seed (0: a random one, printed)")
	fs.IntVar(&c.first, "first", 0, "chaos: the first iteration's number (replays from it)")
	fs.DurationVar(&c.window, "window", 8*time.Second, "chaos: strikes fall within this time of the run's start")
	fs.Float64Var(&c.stale, "stale", 0.2, "chaos: share of iterations whose workflows change first (the run builds)")
	fs.StringVar(&c.chaosHarness, "chaos-harness", "claude-code", "chaos: the real harness of the chaos run's agent")
	fs.IntVar(&c.chaosAgents, "chaos-agents", 3, "chaos: test agents of the chaos run's child")
	fs.StringVar(&kinds, "kinds", joinKinds(chaosKinds), "chaos: what may be struck, comma-separated")
	fs.DurationVar(&c.interval, "interval", 250*time.Millisecond, "how often the processes of a long run are sampled")
	fs.DurationVar(&c.b2bInterval, "b2b-interval", 100*time.Millisecond, "backtoback: how often the processes of each run are sampled")
	fs.DurationVar(&c.modelDelay, "model-delay", 200*time.Millisecond, "the fake model's delay before each reply")
	minMB := fs.Int64("min-available", 2048, "agents, real: stop a run when the machine's available memory falls below this many MB")

	var flags []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case !strings.HasPrefix(a, "-"):
			if !slices.Contains(knownParts, a) {
				return c, fmt.Errorf("unknown part %q (%s)", a, strings.Join(knownParts, ", "))
			}
			c.parts = append(c.parts, a)
		case strings.Contains(a, "=") || isBoolFlag(fs, a) || i+1 == len(args):
			flags = append(flags, a)
		default:
			flags = append(flags, a, args[i+1])
			i++
		}
	}
	if err := fs.Parse(flags); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if slices.Contains(c.parts, "smoke") {
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		for name, v := range smokeCounts {
			if !set[name] {
				_ = fs.Set(name, v)
			}
		}
	}
	c.minAvailable = *minMB * 1024
	return c.finish(harnesses, kinds)
}

func (c config) finish(harnesses, kinds string) (config, error) {
	if c.bin == "" || c.work == "" {
		return c, errors.New("-bin and -work are required (scripts/soak sets them)")
	}
	if len(c.parts) == 0 {
		return c, fmt.Errorf("name a part: %s", strings.Join(knownParts, ", "))
	}
	for _, n := range []int{c.agents, c.concurrency, c.realAgents, c.realTurns, c.runs, c.kills, c.chaosAgents} {
		if n < 1 {
			return c, errors.New("counts must be at least 1")
		}
	}
	if c.window <= 0 || c.agentDelay < 0 || c.interval <= 0 || c.b2bInterval <= 0 || c.first < 0 {
		return c, errors.New("-window, -interval and -b2b-interval must be positive, -agent-delay and -first not negative")
	}
	c.harnesses = strings.Split(harnesses, ",")
	for _, k := range strings.Split(kinds, ",") {
		if !slices.Contains(chaosKinds, Kind(k)) {
			return c, fmt.Errorf("unknown kind %q in -kinds (%s)", k, joinKinds(chaosKinds))
		}
		c.kinds = append(c.kinds, Kind(k))
	}
	if c.seed == 0 {
		c.seed = rand.Uint64N(1<<53) + 1
	}
	return c, nil
}

// has reports whether the part runs.
func (c config) has(part string) bool {
	switch {
	case slices.Contains(c.parts, part), slices.Contains(c.parts, "all"):
		return true
	case slices.Contains(c.parts, "smoke"):
		return part != "real"
	}
	return false
}

// maxConcurrent is the admission limit the private settings get: enough
// for every fan-out of the soak to have all its agents at work at once.
func (c config) maxConcurrent() int { return max(c.concurrency, c.realAgents, 10) }

func isBoolFlag(fs *flag.FlagSet, arg string) bool {
	f := fs.Lookup(strings.TrimLeft(arg, "-"))
	if f == nil {
		return false
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

func joinKinds(ks []Kind) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = string(k)
	}
	return strings.Join(s, ",")
}
