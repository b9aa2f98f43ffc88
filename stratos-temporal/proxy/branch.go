package proxy

import (
	"context"
	"fmt"

	"github.com/stratoscli/stratos/stratos-temporal/engine"
	"github.com/stratoscli/stratos/stratos-temporal/repository"
)

// seeBranch fetches the worktree branch an agent worker pushed after the
// execute into the workflow code's repository (the execute's invocation
// directory), before the SDK gets the result: the code sees the agent's
// branch as it does after a local execute. A fetch that fails is a
// warning; the branch is on the remote.
func (p *Proxy) seeBranch(ctx context.Context, cwd string, b *engine.Branch) {
	if b == nil || cwd == "" {
		return
	}
	if err := repository.See(ctx, cwd, *b); err != nil {
		fmt.Fprintf(p.stderr, "stratos: warning: the agent's branch %s is on %s but not in %s: %v\n", b.Name, b.Remote, cwd, err)
	}
}
