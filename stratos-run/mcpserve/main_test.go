package mcpserve

import (
	"testing"

	"github.com/stratoscli/stratos/shared/jsonvalidate/remote/remotetest"
)

// Tool arguments and workflow inputs are validated in the validator
// process: the test binary serves as one.
func TestMain(m *testing.M) { remotetest.Main(m) }
