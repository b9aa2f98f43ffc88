package sdk

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/toolchain"
	"github.com/stratoscli/stratos/shared/version"
)

// TestPublishedPackageJSON: the published package.json is the checked-in
// one's published fields at the CLI's version, without the development-only
// fields.
func TestPublishedPackageJSON(t *testing.T) {
	var doc map[string]any
	if err := json.Unmarshal(PackageJSON(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["version"] != version.Version || doc["name"] != PackageName || doc["stratosContentHash"] != ContentHash() {
		t.Errorf("name/version/hash = %v %v %v", doc["name"], doc["version"], doc["stratosContentHash"])
	}
	exports, _ := doc["exports"].(map[string]any)
	keys := make([]string, 0, len(exports))
	for k := range exports {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if want := []string{".", "./generated", "./loader", "./runner"}; !slices.Equal(keys, want) {
		t.Errorf("exports = %v, want %v", keys, want)
	}
	for _, dev := range []string{"private", "scripts", "devDependencies"} {
		if _, ok := doc[dev]; ok {
			t.Errorf("the published package.json has the development-only field %q", dev)
		}
	}
}

// TestDevDependenciesArePinned: the checked-in package.json's
// devDependencies (for editors and `npm install` in shared/sdk) are the
// toolchain's pins, which scripts/build-sdk compiles with.
func TestDevDependenciesArePinned(t *testing.T) {
	var doc struct {
		DevDependencies map[string]string `json:"devDependencies"`
	}
	if err := json.Unmarshal(packageSource, &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"typescript": toolchain.TypeScriptVersion, "@types/node": toolchain.TypesNodeVersion, "zod": toolchain.ZodVersion}
	for name, v := range want {
		if doc.DevDependencies[name] != v {
			t.Errorf("package.json devDependencies[%q] = %q, want the toolchain's pin %q", name, doc.DevDependencies[name], v)
		}
	}
}

// TestConfigAgreesWithWorkflowFlags: the SDK's tsconfig.json is the one
// source of its compiler options, and workflows are compiled with explicit
// flags (toolchain.CompilerFlags); the SDK's declarations are compiled into
// workflows, so every workflow flag must hold for the SDK as well.
func TestConfigAgreesWithWorkflowFlags(t *testing.T) {
	data, err := os.ReadFile("tsconfig.json")
	if err != nil {
		t.Fatal(err)
	}
	var config struct {
		CompilerOptions map[string]any `json:"compilerOptions"`
	}
	if err := json.Unmarshal(data, &config); err != nil {
		t.Fatalf("tsconfig.json: %v", err)
	}
	opts := config.CompilerOptions
	flags := toolchain.CompilerFlags
	for i := 0; i < len(flags); i++ {
		name := strings.TrimPrefix(flags[i], "--")
		if name == "ignoreConfig" {
			continue // what makes workflow builds flag-only
		}
		if i+1 < len(flags) && !strings.HasPrefix(flags[i+1], "--") {
			value := flags[i+1]
			i++
			if got := optionText(opts[name]); !strings.EqualFold(got, value) {
				t.Errorf("tsconfig.json %s = %q, workflows compile with --%s %s", name, got, name, value)
			}
			continue
		}
		if opts[name] != true {
			t.Errorf("tsconfig.json %s = %v, workflows compile with --%s", name, opts[name], name)
		}
	}
	for _, name := range []string{"noUncheckedIndexedAccess", "exactOptionalPropertyTypes", "noImplicitOverride"} {
		if opts[name] != true {
			t.Errorf("tsconfig.json %s = %v, want true", name, opts[name])
		}
	}
}

// optionText renders a tsconfig option the way the command line spells it:
// a list as its comma-separated items.
func optionText(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		parts := make([]string, len(v))
		for i, p := range v {
			parts[i], _ = p.(string)
		}
		return strings.Join(parts, ",")
	}
	return ""
}
