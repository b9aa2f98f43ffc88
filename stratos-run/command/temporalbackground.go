package command

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/stratoscli/stratos/shared/contract/temporalapi"
	"github.com/stratoscli/stratos/stratos-run/records"
	"github.com/stratoscli/stratos/stratos-run/runs"
)

// backgroundAnswerTTL is how long the web page reuses what Temporal said
// about a run before it asks again (in the background).
const backgroundAnswerTTL = 15 * time.Second

// errNotAnsweredYet: Temporal has not answered about the run yet; its
// record stays as it is meanwhile.
var errNotAnsweredYet = errors.New("no answer from Temporal about the run yet")

// backgroundTemporal answers the web server's questions about runs on the
// Temporal engine whose submitter is gone without ever making a request
// wait: each answer is what Temporal said last (asked again in the
// background once older than ttl), and a run not asked about before
// reads as its record says until Temporal answers. A server that is
// down would otherwise hold every page for up to 30 s (stratos-temporal
// describe's bounds).
type backgroundTemporal struct {
	inner runs.TemporalRuns
	// ctx ends the questions under way when the server stops.
	ctx context.Context
	ttl time.Duration

	mu      sync.Mutex
	answers map[string]temporalAnswer // by workflow ID
	asking  map[string]bool
	wg      sync.WaitGroup
}

func newBackgroundTemporal(ctx context.Context, t runs.TemporalRuns, ttl time.Duration) *backgroundTemporal {
	return &backgroundTemporal{inner: t, ctx: ctx, ttl: ttl,
		answers: map[string]temporalAnswer{}, asking: map[string]bool{}}
}

// Describe returns the last answer about run, asking again in the
// background when there is none or it is old.
func (b *backgroundTemporal) Describe(_ context.Context, run records.TemporalRun) (temporalapi.RunState, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	a, ok := b.answers[run.WorkflowID]
	if (!ok || time.Since(a.at) >= b.ttl) && !b.asking[run.WorkflowID] && b.ctx.Err() == nil {
		b.asking[run.WorkflowID] = true
		b.wg.Add(1)
		go b.refresh(run)
	}
	if !ok {
		return temporalapi.RunState{}, errNotAnsweredYet
	}
	return a.state, a.err
}

func (b *backgroundTemporal) refresh(run records.TemporalRun) {
	defer b.wg.Done()
	state, err := b.inner.Describe(b.ctx, run)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.answers[run.WorkflowID] = temporalAnswer{state: state, err: err, at: time.Now()}
	delete(b.asking, run.WorkflowID)
}

// Cancel cancels the run and waits, as runs stop does: the page's stop
// button asked for it.
func (b *backgroundTemporal) Cancel(ctx context.Context, run records.TemporalRun) (temporalapi.RunState, error) {
	return b.inner.Cancel(ctx, run)
}

// wait waits for the questions under way (they end with ctx).
func (b *backgroundTemporal) wait() { b.wg.Wait() }

var _ runs.TemporalRuns = (*backgroundTemporal)(nil)
