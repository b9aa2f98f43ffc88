package otlpexport

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/logging"
	"github.com/stratoscli/stratos/shared/toolcall"
	"github.com/stratoscli/stratos/stratos-run/tracing"
)

const usage = `usage: stratos-run-otlp < request.json

stratos-run-otlp exports one finished run as an OpenTelemetry trace over
OTLP/HTTP. stratos run starts it at the end of a run whose trace is
exported (docs/runs.md, "Tracing"), with the run span and the run record
as JSON on stdin; it is not meant to be run by hand. The OTEL_EXPORTER_OTLP_*
variables configure the export. What cannot be read or sent is a warning
on stderr; the exit status is 0 unless the request cannot be read.
`

// Main runs the exporter: an ExportRequest on stdin, warnings on stderr.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 1 {
		if args[1] == "-h" || args[1] == "--help" || args[1] == "help" {
			fmt.Fprint(stdout, usage)
			return 0
		}
		fmt.Fprint(stderr, usage)
		return 2
	}
	if err := toolcall.Accept(tracing.ExporterTool); err != nil {
		_ = clierr.WriteJSON(stdout, err)
		return clierr.ExitCode(err)
	}
	var req tracing.ExportRequest
	if err := json.NewDecoder(stdin).Decode(&req); err != nil {
		fmt.Fprintf(stderr, "stratos-run-otlp: read the export request on stdin: %v\n\n%s", err, usage)
		return 2
	}
	log := logging.New("stratos", stderr)
	Export(req, func(msg string) { log.Warn(msg) })
	return 0
}
