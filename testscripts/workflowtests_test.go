package testscripts

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestWorkflowTests runs testdata/test: `stratos test` over workflows with
// test cases, each case a real run on the test harness. Its own command:
//
//	lastrun  sets $RUN to the newest run's directory (the last case's) and $RUNID to its ID
func TestWorkflowTests(t *testing.T) {
	p := params(t, "test")
	p.Cmds = map[string]func(*testscript.TestScript, bool, []string){"lastrun": cmdRunLastRun}
	testscript.Run(t, p)
}
