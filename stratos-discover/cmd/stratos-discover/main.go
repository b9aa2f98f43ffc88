// Command stratos-discover is the Stratos discover tool;
// see docs/workflows.md and docs/cli/stratos-discover.md.
package main

import (
	"os"

	"github.com/stratoscli/stratos/stratos-discover/command"
)

func main() { os.Exit(command.Main(os.Args, os.Stdin, os.Stdout, os.Stderr)) }
