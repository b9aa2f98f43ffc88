package command

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/stratos-run/runs"
)

const retryFlag = "retry"

// retryableCodes are the errors worth another attempt: what failed was
// outside the workflow's code and may not fail again (a model or harness
// that was unavailable or broke, an MCP server that could not be reached,
// node dying under the run). An author's bug, bad input, a budget or an
// interruption fails the same way again, or must not be retried.
var retryableCodes = []string{
	agentproto.CodeModelUnavailable, agentproto.CodeExecution, agentproto.CodeInitialization,
	agentproto.CodeMCPConnection, agentproto.CodeMCPTimeout, runapi.CodeRunnerFailed,
}

// retryable reports whether err, or an error in its cause chain, is one
// another attempt may get past.
func retryable(err *clierr.Error) bool {
	if slices.Contains(retryableCodes, err.Code) {
		return true
	}
	links, _ := err.Details["cause"].([]errorLink)
	for _, l := range links {
		if slices.Contains(retryableCodes, l.Code) {
			return true
		}
	}
	return false
}

// retryDelay is the wait before attempt n (2, 3, ...): 1s, 2s, 4s, ...,
// at most a minute.
func retryDelay(n uint64) time.Duration {
	return min(time.Second<<min(n-2, 6), time.Minute)
}

// retry resumes x's run after a retryable failure, up to the --retry
// count, each attempt a new execution linked to the one before it. It
// returns the last attempt's execution, output and error.
func (x *execution) retry(ctx context.Context, output json.RawMessage, runErr *clierr.Error) (*execution, json.RawMessage, *clierr.Error) {
	// The count of attempts is the retries' plus one, as a uint64: the
	// largest --retry (9223372036854775807) would overflow an int, which
	// stopped the loop before a single retry.
	attempts := uint64(x.retries) + 1
	// Each attempt holds the resume lock of the one it resumes while it
	// runs.
	var resumed *runs.ResumePoint
	defer func() { resumed.Release() }()
	for n := uint64(2); n <= attempts && runErr != nil && retryable(runErr); n++ {
		if ctx.Err() != nil {
			return x, nil, waitInterrupted(runErr, n, attempts)
		}
		// The failed attempt is taken (its resume lock held) before the
		// wait, so that a runs resume of it meanwhile is refused rather
		// than making the same calls beside the next attempt.
		next, point, err := x.resumption()
		resumed.Release()
		resumed = point
		if err != nil {
			return x, nil, clierr.As(err)
		}
		delay := retryDelay(n)
		x.log.Warn(fmt.Sprintf("the run failed with %s; resuming it in %s (attempt %d of %d)", runErr.Code, delay, n, attempts), "run", x.id)
		select {
		case <-ctx.Done():
			return x, nil, waitInterrupted(runErr, n, attempts)
		case <-time.After(delay):
		}
		next.startEarly(ctx)
		if err := next.begin(); err != nil {
			next.early.abort()
			return x, nil, clierr.As(err)
		}
		x = next
		output, runErr = x.run(ctx)
	}
	return x, output, runErr
}

// waitInterrupted is the error of a --retry interrupted (Ctrl-C, SIGTERM)
// while it waited to start attempt n: an interruption (exit
// 130) that says so, with the failure it waited to get past and that
// failure's details. Returned as it was, the failure read as interrupted
// in the middle of it ("interrupted: <the model's error>").
func waitInterrupted(failure *clierr.Error, n, attempts uint64) *clierr.Error {
	details := make(map[string]any, len(failure.Details)+1)
	for k, v := range failure.Details {
		details[k] = v
	}
	details["failedWith"] = failure.Code
	return &clierr.Error{
		Code: errcode.CodeInterrupted, Exit: clierr.ExitInterrupted, Details: details, Err: failure,
		Message: fmt.Sprintf("interrupted while waiting to resume the run (attempt %d of %d), which had failed with %s: %s", n, attempts, failure.Code, failure.Message),
	}
}

// resumption is the execution that resumes x's run, as `stratos runs
// resume` would start it, with x's input and budget.
// The point it resumes holds x's run's resume lock until released.
func (x *execution) resumption() (*execution, *runs.ResumePoint, error) {
	store, err := openStore()
	if err != nil {
		return nil, nil, err
	}
	point, err := store.ResumePoint(x.id)
	if err != nil {
		return nil, nil, err
	}
	next, err := resumedExecution(point, x.input, x.budget, false)
	if err != nil {
		return nil, point, err
	}
	next.log, next.stderr, next.json, next.retries = x.log, x.stderr, x.json, x.retries
	return next, point, nil
}

// nonNegative refuses a negative count for flag (a usage error, exit 2).
func nonNegative(flag string) func(int) error {
	return func(n int) error {
		if n < 0 {
			return clierr.Usage(errcode.CodeUsage, "--%s must be 0 or more (it is %d)", flag, n)
		}
		return nil
	}
}
