package agentconfig

import "github.com/stratoscli/stratos/shared/agentproto"

// mergeWorktree merges the worktree setting field by field, like the agent
// configuration around it: enabled, name and cleanup each come from the
// highest source that supplies them. enabled is required in every source
// (the schema says so), so a higher source always decides whether the agent
// gets a worktree, while a name or a cleanup choice it leaves out is kept
// from below: overriding {enabled: true, cleanup: false} over a YAML
// {enabled: true, name: review} yields the worktree "review", protected.
func mergeWorktree(lower, higher *agentproto.Worktree) *agentproto.Worktree {
	if higher == nil {
		return lower
	}
	if lower == nil {
		return higher
	}
	out := *lower // never modify a source: the workflow's entries are cached
	out.Enabled = higher.Enabled
	pick(&out.Name, higher.Name)
	pick(&out.Cleanup, higher.Cleanup)
	return &out
}
