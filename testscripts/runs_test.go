package testscripts

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestRuns runs testdata/runs: `stratos runs` over real run records, and
// the crash reconciliation that `stratos runs` and `stratos run` do.
//
// Script commands (shared with TestRun and TestAgents):
//
//	lastrun                        set $RUN and $RUNID to the newest run record
//	jsonget <file> <path> <json>   the value at path in the JSON file equals json
//	waitfile <path>                wait until path exists
//	pidgone <pidfile>              wait until the process in pidfile is gone
//	waitfor <glob> <text>          wait until a file matching glob contains text
//	otlp start|tree                an OTLP trace receiver (see withOTLP)
func TestRuns(t *testing.T) {
	p := params(t, "runs")
	p.Cmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"lastrun":  cmdRunLastRun,
		"jsonget":  cmdRunJSONGet,
		"waitfile": cmdRunWaitFile,
		"pidgone":  cmdRunPidGone,
		"waitfor":  cmdWaitFile,
	}
	testscript.Run(t, withOTLP(p))
}
