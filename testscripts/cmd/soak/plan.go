package main

import (
	"math/rand/v2"
	"slices"
	"time"

	"github.com/stratoscli/stratos/stratos-run/records"
)

// KindSigterm is not a process: it is the chaos loop sending SIGTERM to
// stratos-run, what a Ctrl-C or `stratos runs stop` does.
const KindSigterm Kind = "sigterm"

// chaosKinds are what the chaos loop may strike, by default.
var chaosKinds = []Kind{KindRun, KindNode, KindAgentHost, KindHarness, KindMCP, KindWatchdog, KindBuild, KindCompiler, KindSigterm}

// action is one iteration of the chaos loop: what to strike and when.
type action struct {
	// Kind is the kind of process killed with SIGKILL (or KindSigterm).
	Kind Kind
	// At is when, from the run's start; when no process of Kind runs then,
	// the first one to appear is struck.
	At time.Duration
	// Pick chooses among the processes of Kind running then.
	Pick uint32
	// Stale makes the workflows' sources change first, so that the run
	// builds them before it runs (and holds the build lock meanwhile).
	Stale bool
}

// planIteration is iteration i of the loop with seed: the same seed and i
// give the same action, so that a failure can be replayed alone. Kinds of
// the build strike within the first eighth of the window, while the build
// runs (or as soon as they appear).
func planIteration(seed uint64, i int, kinds []Kind, window time.Duration, stale float64) action {
	r := rand.New(rand.NewPCG(seed, uint64(i)))
	a := action{Kind: kinds[r.IntN(len(kinds))], Pick: r.Uint32()}
	staleDraw := r.Float64()
	a.Stale = a.building() || staleDraw < stale
	w := window
	if a.building() {
		w = window / 8
	}
	a.At = time.Duration(r.Int64N(int64(w) + 1))
	return a
}

// building reports whether the action strikes a process of the build.
func (a action) building() bool { return a.Kind == KindBuild || a.Kind == KindCompiler }

// expected are the statuses a run may end with once its process of kind
// k was struck, as docs/running.md and docs/runs.md describe them:
//
//   - stratos-run killed: nobody writes a final status; the next `stratos
//     runs` command reconciles the record as crashed.
//   - sigterm: the run is cancelled (or interrupted, when the runtime had
//     to be killed).
//   - a watchdog killed: the watchdogs only act when what they watch dies;
//     the run goes on and succeeds.
//   - anything else killed (node, the agent host, a harness CLI, an MCP
//     server, the build or the compiler): the run fails.
func expected(k Kind) []string {
	switch k {
	case KindRun:
		return []string{records.StatusCrashed}
	case KindSigterm:
		return []string{records.StatusCancelled, records.StatusInterrupted}
	case KindWatchdog:
		return []string{records.StatusSucceeded}
	}
	return []string{records.StatusFailed}
}

// recordOptional reports whether a run whose k was struck at once may have
// no record: stratos-run killed or stopped before it began the record
// (a run's record begins once its workflow is resolved).
func recordOptional(k Kind) bool {
	return slices.Contains([]Kind{KindRun, KindSigterm}, k)
}
