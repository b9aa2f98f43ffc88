package command

import (
	"context"
	"os"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/shared/sdk"
	"github.com/stratoscli/stratos/shared/toolchain"
	"github.com/stratoscli/stratos/stratos-run/supervise"
	"github.com/stratoscli/stratos/stratos-run/tracing"
)

// runner is the runtime (node running the SDK's runner) of one run: the
// command, the key its result is framed under, and once started the
// supervised process.
type runner struct {
	*supervise.Runner
	spec supervise.Spec
	key  []byte
}

// startEarly starts the runtime before the run record is written, so that
// node starts and loads the runtime while this process writes the record:
// the two overlap instead of following each other. The runtime runs no
// workflow code before its invocation, which is sent once the record
// exists. It starts early only when that cannot change what the run does
// or prints: the workflow is built (no build will replace the SDK node
// loads), it needs no MCP login check (which may fail the run before
// node), and no trace is exported (node's environment names the run's
// span, which begins with the record). Otherwise x.early stays nil and the
// run starts node in its place.
func (x *execution) startEarly(ctx context.Context) {
	if tracing.Exports(os.Getenv) || x.target.NeedsMCPLogins() || !x.target.Fresh() {
		return
	}
	r, err := x.newRunner(ctx)
	if err == nil {
		err = r.start(x.target.Name())
	}
	// A failure is reported where the run reported it before (after the
	// record and the checks), not retried: finding node may mean
	// provisioning it.
	x.early, x.earlyErr = r, err
}

// newRunner finds node and makes the runner's command: in the invoking
// directory, its output going to stderr.
func (x *execution) newRunner(ctx context.Context) (*runner, *clierr.Error) {
	tc, err := toolchain.FindNode(ctx, toolchain.Options{Log: x.log})
	if err != nil {
		return nil, clierr.As(err)
	}
	key, err := supervise.NewResultKey()
	if err != nil {
		return nil, clierr.New(errcode.CodeInternal, "create the run's result key: %v", err).Wrap(err)
	}
	node := tc.NodeCommand(context.Background(), sdk.RunnerPath(x.target.Root.Root.Dir))
	node.Env = append(node.Env, x.env...)
	if tp := x.trace.Traceparent(); tp != "" {
		// The runtime, the agent host and the harnesses inherit it: a
		// harness that traces itself joins the run's trace.
		node.Env = append(node.Env, tracing.Traceparent+"="+tp)
	}
	spec := supervise.Spec{Cmd: node, Dir: x.cwd, ResultKey: key, Output: x.stderr, Log: x.log}
	return &runner{spec: spec, key: key}, nil
}

// start starts node; the runner then waits for its invocation (Run).
func (r *runner) start(workflow string) *clierr.Error {
	sr, err := supervise.Start(r.spec)
	if err != nil {
		return clierr.New(runapi.CodeRunnerFailed, "start node for %s: %v", workflow, err).Wrap(err)
	}
	r.Runner = sr
	return nil
}

// abort ends a runner that will get no invocation; nil or not started
// does nothing.
func (r *runner) abort() {
	if r != nil && r.Runner != nil {
		r.Abort()
	}
}
