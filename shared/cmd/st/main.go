// Command st is the short alias of stratos.
package main

import (
	"os"

	"github.com/stratoscli/stratos/shared/dispatch"
)

func main() { os.Exit(dispatch.Main(os.Args, os.Stdout, os.Stderr)) }
