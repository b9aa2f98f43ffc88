// Command stratos-run is the Stratos run tool;
// see docs/running.md and docs/cli/stratos-run.md.
package main

import (
	"os"

	"github.com/stratoscli/stratos/stratos-run/command"
)

func main() { os.Exit(command.Main(os.Args, os.Stdin, os.Stdout, os.Stderr)) }
