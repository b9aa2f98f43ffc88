// Package remotetest lets the tests of a package that validates through
// package remote run with a validator process: the test binary itself,
// started under the validator's name.
package remotetest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stratoscli/stratos/shared/jsonvalidate/remote"
	"github.com/stratoscli/stratos/shared/jsonvalidate/serve"
	"github.com/stratoscli/stratos/shared/sibling"
)

// Main is a TestMain: started as remote.Tool, the test binary serves
// validation requests; otherwise it runs the tests with a link named
// remote.Tool to itself first in $STRATOS_BIN_DIR's place.
func Main(m *testing.M) {
	if filepath.Base(os.Args[0]) == remote.Tool {
		os.Exit(serve.Main(os.Args, os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(run(m))
}

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "validator")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	exe, err := os.Executable()
	if err == nil {
		err = os.Symlink(exe, filepath.Join(dir, remote.Tool))
	}
	if err == nil {
		err = os.Setenv(sibling.EnvBinDir, dir)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return m.Run()
}
