// Command modproxy writes a file-based Go module proxy of this repository's
// modules, built from the working tree, for GOPROXY=file://<out>:
//
//	go run ./testscripts/cmd/modproxy -out DIR [-version vX.Y.Z] MODULE_DIR...
//	go run ./testscripts/cmd/modproxy -required MODULE_DIR...
//
// Run it from the repository root. The version defaults to the one at which
// the modules require each other, which -required prints. scripts/test uses it to check
// `go mod tidy` per module, scripts/release to record the checksums of the
// modules it is about to tag.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/stratoscli/stratos/testscripts/internal/modproxy"
)

func main() {
	out := flag.String("out", "", "directory to write the proxy into (required)")
	version := flag.String("version", "", "version to serve every module at (default: the one they require)")
	required := flag.Bool("required", false, "print the version at which the modules require each other, and exit")
	flag.Parse()
	if (*out == "") == !*required || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: modproxy -out DIR [-version vX.Y.Z] MODULE_DIR... | modproxy -required MODULE_DIR...")
		os.Exit(2)
	}
	if err := run(*out, *version, *required, flag.Args()); err != nil {
		fmt.Fprintf(os.Stderr, "modproxy: %v\n", err)
		os.Exit(1)
	}
}

func run(out, version string, required bool, dirs []string) error {
	mods, err := modproxy.Modules(".", dirs)
	if err != nil {
		return err
	}
	if required {
		v, err := modproxy.RequiredVersion(".", mods)
		if err == nil {
			fmt.Println(v)
		}
		return err
	}
	if version == "" {
		if version, err = modproxy.RequiredVersion(".", mods); err != nil {
			return err
		}
	}
	if err := modproxy.Build(out, ".", version, mods); err != nil {
		return err
	}
	fmt.Println(version)
	return nil
}
