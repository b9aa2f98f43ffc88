package command

import (
	"context"
	"fmt"
	"io"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/stratoscli/stratos/stratos-temporal/engine"
)

// followEvery is how often the submitter asks for the code's progress (its
// worker reports it with each heartbeat, every few seconds).
const followEvery = time.Second

// follower copies the run's console output to the terminal while the run
// runs, from the heartbeats of its code's activity.
type follower struct {
	out     io.Writer
	decode  converter.DataConverter
	attempt int
	printed int64 // bytes of this attempt's output printed
	events  *eventMirror
}

// follow polls until ctx ends.
func (f *follower) follow(ctx context.Context, c client.Client, id string) {
	tick := time.NewTicker(followEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if p, ok := codeProgress(ctx, c, f.decode, id); ok {
			f.show(p)
		}
	}
}

// codeProgress is the last progress the code's activity reported.
func codeProgress(ctx context.Context, c client.Client, dc converter.DataConverter, id string) (engine.Progress, bool) {
	var p engine.Progress
	_, ok := engine.LastHeartbeat(ctx, c, dc, id, engine.ActivityRunCode, &p)
	return p, ok
}

// show prints what p adds to what was printed; a new attempt starts over,
// said so first.
func (f *follower) show(p engine.Progress) {
	if p.Attempt != f.attempt {
		// An attempt after the first is said even when the first was not
		// seen (its worker died before its first heartbeat reached the
		// server).
		if f.attempt != 0 || p.Attempt > 1 {
			fmt.Fprintf(f.out, "stratos: the run's code goes on as attempt %d on worker %s (the finished agent work is not repeated)\n", p.Attempt, p.Worker)
		}
		f.attempt, f.printed = p.Attempt, 0
		f.events.newAttempt()
	}
	f.events.add(p.EventsTotal, p.EventsTail)
	start := p.Total - int64(len(p.Tail))
	if f.printed < start {
		fmt.Fprintf(f.out, "stratos: [%d bytes of console output not shown]\n", start-f.printed)
		f.printed = start
	}
	if p.Total > f.printed {
		_, _ = f.out.Write(p.Tail[f.printed-start:])
		f.printed = p.Total
	}
}

// finish prints what the result's console output adds to what was shown.
func (f *follower) finish(res engine.RunResult) {
	if res.Attempt != f.attempt {
		f.show(engine.Progress{Worker: res.Worker, Attempt: res.Attempt})
	}
	if int64(len(res.Stderr)) > f.printed {
		_, _ = f.out.Write(res.Stderr[f.printed:])
	}
}
