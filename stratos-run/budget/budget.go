// Package budget holds a run to its budget: a limit on the tokens and the
// US dollars its agents may spend, from workflow.yaml's budget section and
// the --budget-usd/--budget-tokens flags. While the run runs, a watcher
// adds up the usage events the agent host appends to the run's
// events.jsonl; once the spending crosses a limit, it cancels the run
// through the normal cancellation path, and the run fails with
// budget_exceeded.
package budget

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/stratos-run/records"
	"github.com/stratoscli/stratos/stratos-run/runs"
)

// Limits is a budget; a zero field sets no limit. It is the record's
// budget type, so the run record keeps exactly the limits the run had.
type Limits records.Budget

// Set reports whether any limit is set.
func (l Limits) Set() bool { return l.USD > 0 || l.Tokens > 0 }

// Record is the budget as the run record keeps it: nil when no limit is set.
func (l Limits) Record() *records.Budget {
	if !l.Set() {
		return nil
	}
	b := records.Budget(l)
	return &b
}

// FromManifest reads workflow.yaml's budget section (nil: no budget):
// {usd: number, tokens: integer}, each positive and finite (YAML's .nan
// and .inf are numbers too).
func FromManifest(section any, source string) (Limits, error) {
	var l Limits
	if section == nil {
		return l, nil
	}
	m, ok := section.(map[string]any)
	if !ok {
		return l, invalid("%s: budget must be a mapping {usd, tokens}", source)
	}
	for k, v := range m {
		switch k {
		case "usd":
			f, ok := number(v)
			if !ok || !validUSD(f) {
				return l, invalid("%s: budget.usd must be a positive number, not %v", source, v)
			}
			l.USD = f
		case "tokens":
			f, ok := number(v)
			if !ok || f <= 0 || f != float64(int64(f)) {
				return l, invalid("%s: budget.tokens must be a positive whole number, not %v", source, v)
			}
			l.Tokens = int64(f)
		default:
			return l, invalid("%s: unknown budget field %q (known: usd, tokens)", source, k)
		}
	}
	return l, nil
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case uint64:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}

func invalid(format string, args ...any) error {
	return clierr.Usage(runapi.CodeBudgetInvalid, format, args...)
}

// Flags are the budget flags of a command line: a nil field was not given.
type Flags struct {
	USD    *float64
	Tokens *int64
}

// Override returns l with the limits of the flags that were given. A
// given flag must set a limit: a positive, finite number. Zero is refused
// rather than read as "no limit" (which is what leaving the flag out
// means) or as "spend nothing": the watcher sees a turn's usage only once
// the turn has been paid for, so no budget can hold a run to zero.
func (l Limits) Override(f Flags) (Limits, error) {
	if f.USD != nil {
		if !validUSD(*f.USD) {
			return l, invalid("--budget-usd %v: a limit must be positive (US dollars above 0, finite); leave the flag out for no limit", *f.USD)
		}
		l.USD = *f.USD
	}
	if f.Tokens != nil {
		if *f.Tokens <= 0 {
			return l, invalid("--budget-tokens %d: a limit must be positive (a whole number of tokens above 0); leave the flag out for no limit", *f.Tokens)
		}
		l.Tokens = *f.Tokens
	}
	return l, nil
}

// validUSD reports whether usd can be a dollar limit: positive and finite
// (NaN compares false with everything, so it would never be crossed; an
// infinite limit has no JSON form for the run record).
func validUSD(usd float64) bool { return usd > 0 && !math.IsInf(usd, 0) }

// crossed says which limits spent crosses, "" when none: turns priced
// from the catalog count in USD like reported ones; unknown-cost turns
// count against tokens only.
func (l Limits) crossed(spent records.Spent) string {
	var over []string
	if l.Tokens > 0 && spent.Tokens > l.Tokens {
		over = append(over, fmt.Sprintf("%d tokens of a %d-token budget", spent.Tokens, l.Tokens))
	}
	if l.USD > 0 && spent.USD > l.USD {
		over = append(over, fmt.Sprintf("$%.4f of a $%.4f budget", spent.USD, l.USD))
	}
	return strings.Join(over, " and ")
}

// Exceeded is the error of a run cancelled for crossing its budget; spent
// counts the executions it resumes, if any.
func Exceeded(l Limits, spent records.Spent, workflow string) *clierr.Error {
	msg := fmt.Sprintf("workflow %s exceeded its budget: spent %s; the run was cancelled", workflow, l.crossed(spent))
	if spent.UnknownCostTurns > 0 {
		msg += fmt.Sprintf(" (%d turn(s) reported no cost: counted against tokens only)", spent.UnknownCostTurns)
	}
	return clierr.New(runapi.CodeBudgetExceeded, "%s", msg).WithDetails(map[string]any{
		"name":   "BudgetExceededError",
		"budget": l,
		"spent":  spent,
	})
}

// Watcher adds up a run's usage events while it runs.
type Watcher struct {
	limits  Limits
	carried records.Spent // spent by the executions the run resumes
	tail    *runs.Tail
	done    chan struct{}

	mu      sync.Mutex
	spent   runs.Usage
	crossed bool
}

// Watch follows the events file at path every poll until ctx ends or Stop
// is called; it calls cancel once when the spending, with what the
// executions the run resumes spent (carried), crosses l.
func Watch(ctx context.Context, path string, l Limits, carried records.Spent, poll time.Duration, cancel func()) *Watcher {
	w := &Watcher{limits: l, carried: carried, tail: runs.NewTail(path), done: make(chan struct{})}
	go w.loop(ctx, poll, cancel)
	return w
}

func (w *Watcher) loop(ctx context.Context, poll time.Duration, cancel func()) {
	defer close(w.done)
	ticker := time.NewTicker(poll)
	defer ticker.Stop()
	for {
		if w.check() {
			cancel()
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
}

// check reads the new events and reports whether the budget is now crossed.
func (w *Watcher) check() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	_ = w.tail.Drain(func(line []byte) error { // an unreadable log is read again next time
		w.spent.AddEvent(line)
		return nil
	})
	w.crossed = w.limits.crossed(w.total()) != ""
	return w.crossed
}

// total is what the run and the executions it resumes spent.
func (w *Watcher) total() records.Spent {
	return w.carried.Plus(runs.SpentOf(w.spent))
}

// Stop waits for the watcher to end (its ctx must be done), reads the
// events written since its last look, and returns what was spent (carried
// included) and whether the budget was crossed: a run that ended before
// the watcher's next look at its last usage is judged by all of it.
func (w *Watcher) Stop() (records.Spent, bool) {
	<-w.done
	crossed := w.check()
	w.tail.Close()
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.total(), crossed
}
