// Command stratos-models is the Stratos models tool;
// see docs/models.md and docs/cli/stratos-models.md.
package main

import (
	"os"

	"github.com/stratoscli/stratos/stratos-models/command"
)

func main() { os.Exit(command.Main(os.Args, os.Stdin, os.Stdout, os.Stderr)) }
