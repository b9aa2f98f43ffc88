// Command stratos-run-validate validates JSON values against JSON Schemas
// for stratos run, which starts it (shared/jsonvalidate/serve): the run
// tool itself does not link the validating library (docs/performance.md).
package main

import (
	"os"

	"github.com/stratoscli/stratos/shared/jsonvalidate/serve"
)

func main() { os.Exit(serve.Main(os.Args, os.Stdin, os.Stdout, os.Stderr)) }
