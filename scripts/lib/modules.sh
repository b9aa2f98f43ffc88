# The Go modules of the workspace, in dependency order. Sourced by scripts.
MODULES=(shared stratos-discover stratos-build stratos-run stratos-agent stratos-temporal stratos-worktree stratos-models testscripts)
TOOLS=(stratos-discover stratos-build stratos-run stratos-agent stratos-temporal stratos-worktree stratos-models)
# Binaries besides the tools', as module:command; started by a tool, never
# dispatched (stratos-run-otlp exports a run's trace, docs/runs.md;
# stratos-run-validate validates JSON for stratos run, docs/performance.md).
HELPERS=(stratos-run:stratos-run-otlp stratos-run:stratos-run-validate)
# The modules users install and scripts/release tags: all but the tests.
PUBLISHED=(shared "${TOOLS[@]}")
MODULE_PREFIX=github.com/stratoscli/stratos
