package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLinksLittle: the dispatcher starts before every `stratos …` command
// and only execs a tool; what it links it loads and initializes each time
// (docs/performance.md). The command-line library is the tools'.
func TestLinksLittle(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "github.com/urfave/cli") || pkg == "github.com/stratoscli/stratos/shared/cliapp" {
			t.Errorf("the dispatcher links %s", pkg)
		}
	}
}
