// Command stratos-worktree is the Stratos worktree tool; see the README.
package main

import (
	"os"

	"github.com/stratoscli/stratos/stratos-worktree/command"
)

func main() { os.Exit(command.Main(os.Args, os.Stdin, os.Stdout, os.Stderr)) }
