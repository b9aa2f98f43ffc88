package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLinksNoSchemaValidator: stratos-run starts at every `stratos run`,
// and the JSON Schema library compiles the meta-schemas of every draft in
// its package initialization (about 10 ms); the run's checks validate in
// stratos-run-validate instead (docs/performance.md).
func TestLinksNoSchemaValidator(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "github.com/santhosh-tekuri/jsonschema") || pkg == "github.com/stratoscli/stratos/shared/jsonvalidate" {
			t.Errorf("stratos-run links %s", pkg)
		}
	}
}
