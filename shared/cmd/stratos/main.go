// Command stratos dispatches `stratos <command> …` to the Stratos tool that
// owns the command (see shared/dispatch).
package main

import (
	"os"

	"github.com/stratoscli/stratos/shared/dispatch"
)

func main() { os.Exit(dispatch.Main(os.Args, os.Stdout, os.Stderr)) }
