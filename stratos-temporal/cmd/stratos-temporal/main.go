// Command stratos-temporal runs Stratos workflows and agents on Temporal
// workers; see docs/temporal.md and docs/cli/stratos-temporal.md.
package main

import (
	"os"

	"github.com/stratoscli/stratos/stratos-temporal/command"
)

func main() { os.Exit(command.Main(os.Args, os.Stdin, os.Stdout, os.Stderr)) }
