package testscripts

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestTools covers `stratos tools list`: the static built-in tool mappings.
func TestTools(t *testing.T) { testscript.Run(t, params(t, "tools")) }
