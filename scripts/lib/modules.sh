# The Go modules of the workspace, in dependency order. Sourced by scripts.
MODULES=(shared stratos-discover stratos-build stratos-run stratos-agent stratos-worktree stratos-models testscripts)
TOOLS=(stratos-discover stratos-build stratos-run stratos-agent stratos-worktree stratos-models)
# The modules users install and scripts/release tags: all but the tests.
PUBLISHED=(shared "${TOOLS[@]}")
MODULE_PREFIX=github.com/stratoscli/stratos
