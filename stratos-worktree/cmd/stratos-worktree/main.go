// Command stratos-worktree is the Stratos worktree tool;
// see docs/worktrees.md and docs/cli/stratos-worktree.md.
package main

import (
	"os"

	"github.com/stratoscli/stratos/stratos-worktree/command"
)

func main() { os.Exit(command.Main(os.Args, os.Stdin, os.Stdout, os.Stderr)) }
