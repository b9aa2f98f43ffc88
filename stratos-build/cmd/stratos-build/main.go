// Command stratos-build is the Stratos build tool;
// see docs/building.md and docs/cli/stratos-build.md.
package main

import (
	"os"

	"github.com/stratoscli/stratos/stratos-build/command"
)

func main() { os.Exit(command.Main(os.Args, os.Stdin, os.Stdout, os.Stderr)) }
