# The Go modules of the workspace, in dependency order. Sourced by scripts.
MODULES=(shared stratos-discover stratos-build stratos-run stratos-agent stratos-worktree stratos-models testscripts)
TOOLS=(stratos-discover stratos-build stratos-run stratos-agent stratos-worktree stratos-models)
