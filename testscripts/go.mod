module github.com/stratoscli/stratos/testscripts

go 1.26.8

require (
	github.com/rogpeppe/go-internal v1.16.0
	github.com/stratoscli/stratos/shared v0.0.0
	github.com/stratoscli/stratos/stratos-agent v0.0.0
	github.com/stratoscli/stratos/stratos-build v0.0.0
	github.com/stratoscli/stratos/stratos-discover v0.0.0
	github.com/stratoscli/stratos/stratos-models v0.0.0
	github.com/stratoscli/stratos/stratos-run v0.0.0
	github.com/stratoscli/stratos/stratos-worktree v0.0.0
)

require (
	github.com/urfave/cli/v3 v3.14.0 // indirect
	golang.org/x/sys v0.26.0 // indirect
	golang.org/x/tools v0.26.0 // indirect
)

replace (
	github.com/stratoscli/stratos/shared => ../shared
	github.com/stratoscli/stratos/stratos-agent => ../stratos-agent
	github.com/stratoscli/stratos/stratos-build => ../stratos-build
	github.com/stratoscli/stratos/stratos-discover => ../stratos-discover
	github.com/stratoscli/stratos/stratos-models => ../stratos-models
	github.com/stratoscli/stratos/stratos-run => ../stratos-run
	github.com/stratoscli/stratos/stratos-worktree => ../stratos-worktree
)
