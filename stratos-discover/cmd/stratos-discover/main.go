// Command stratos-discover is the Stratos discover tool;
// see docs/workflows.md and docs/cli/stratos-discover.md.
package main

import (
	"os"
	"runtime/debug"

	"github.com/stratoscli/stratos/stratos-discover/command"
)

// discoverGCPercent is the tool's GOGC. A `stratos list` of a large root
// allocates many short-lived strings and slices (paths, decoded records)
// over a live heap of a few megabytes and exits within a second: at Go's
// default (100) the collector ran about a tenth of its CPU time; at 400 it
// runs a few times, for a few more megabytes of peak memory.
const discoverGCPercent = 400

func main() {
	// A GOGC the user set wins, as it does for any Go program.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(discoverGCPercent)
	}
	os.Exit(command.Main(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
