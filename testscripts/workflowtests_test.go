package testscripts

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestWorkflowTests runs testdata/test: `stratos test` over workflows with
// test cases, each case a real run on the test harness.
func TestWorkflowTests(t *testing.T) {
	testscript.Run(t, params(t, "test"))
}
