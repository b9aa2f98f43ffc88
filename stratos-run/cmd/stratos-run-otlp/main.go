// Command stratos-run-otlp exports a finished run as an OpenTelemetry
// trace; stratos run starts it for a run that is exported (docs/runs.md,
// "Tracing").
package main

import (
	"os"

	"github.com/stratoscli/stratos/stratos-run/tracing/otlpexport"
)

func main() { os.Exit(otlpexport.Main(os.Args, os.Stdin, os.Stdout, os.Stderr)) }
