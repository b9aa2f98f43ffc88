package command

import (
	"testing"

	"github.com/stratoscli/stratos/shared/jsonvalidate/remote/remotetest"
)

// The input and output checks validate in the validator process: the test
// binary serves as one.
func TestMain(m *testing.M) { remotetest.Main(m) }
