package testscripts

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestDispatch(t *testing.T) { testscript.Run(t, params(t, "dispatch")) }
