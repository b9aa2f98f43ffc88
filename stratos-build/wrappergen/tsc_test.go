package wrappergen

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/toolchain"
	"github.com/stratoscli/stratos/shared/toolchain/toolchaintest"
)

// TestWrappersCompileWithTsc compiles every golden wrapper, plus a parent's
// usage file that calls them with correct and (under @ts-expect-error)
// incorrect inputs, with the pinned tsc and the pinned strict flags against
// the real SDK declarations, laid out like a discovery root.
func TestWrappersCompileWithTsc(t *testing.T) {
	tc := ensureToolchain(t)
	root := newRoot(t)
	for name := range goldenCases(t) {
		copyFile(t, filepath.Join("testdata", name+".golden"), filepath.Join(root, ".generated", name+".ts"))
	}
	copyFile(t, filepath.Join("testdata", "usage", "usage.ts"), filepath.Join(root, "parent", "workflow.ts"))

	files, _ := filepath.Glob(filepath.Join(root, ".generated", "*.ts"))
	out, err := compile(t, tc, root, append(files, filepath.Join(root, "parent", "workflow.ts"))...)
	if err != nil {
		t.Fatalf("tsc rejected the generated wrappers or their use (%v):\n%s", err, out)
	}
	// The compiled wrapper must import the SDK by its package name, so it
	// resolves to the root's single shared SDK instance at run time.
	js, err := os.ReadFile(filepath.Join(root, "parent", "dist", ".generated", "review-pr.js"))
	if err != nil {
		t.Fatalf("tsc emitted no wrapper JavaScript: %v", err)
	}
	if !strings.Contains(string(js), `from "`+SDKModule+`"`) {
		t.Errorf("compiled wrapper does not import %s:\n%s", SDKModule, js)
	}
}

// TestTscRejectsMisuse is the control for the test above: without the
// @ts-expect-error directive, a wrong input must fail the compile, naming
// the file and the missing field.
func TestTscRejectsMisuse(t *testing.T) {
	tc := ensureToolchain(t)
	root := newRoot(t)
	copyFile(t, filepath.Join("testdata", "review-pr.golden"), filepath.Join(root, ".generated", "review-pr.ts"))
	bad := filepath.Join(root, "parent", "workflow.ts")
	writeFile(t, bad, `import createReviewPr from "../.generated/review-pr.js";
export const out = await createReviewPr().execute({ repository: "org/repo" });
`)
	out, err := compile(t, tc, root, bad)
	if err == nil {
		t.Fatalf("tsc accepted an input without the required pullNumber:\n%s", out)
	}
	for _, want := range []string{"parent/workflow.ts(2,", "error TS2741", "pullNumber"} {
		if !strings.Contains(out, want) {
			t.Errorf("tsc output lacks %q:\n%s", want, out)
		}
	}
}

// ensureToolchain returns the pinned toolchain from the test cache. It never
// skips: a missing toolchain is a failure with instructions.
func ensureToolchain(t *testing.T) *toolchain.Toolchain {
	t.Helper()
	if os.Getenv(toolchain.EnvDir) == "" {
		t.Fatalf("%s is not set, so there is no TypeScript %s to compile the wrappers with. "+
			"Run scripts/test (it prepares the toolchain cache and sets %[1]s), or set %[1]s to a "+
			"directory where the toolchain may be installed, e.g. %[1]s=$HOME/.cache/stratos-test/toolchain go test ./...",
			toolchain.EnvDir, toolchain.TypeScriptVersion)
	}
	tc, err := toolchain.Ensure(context.Background(), toolchain.Options{Log: toolchaintest.Logger(t)})
	if err != nil {
		t.Fatalf("toolchain.Ensure with %s=%s: %v (run scripts/test to prepare the toolchain cache)",
			toolchain.EnvDir, os.Getenv(toolchain.EnvDir), err)
	}
	return tc
}

// newRoot lays out a discovery root with the SDK installed where workflows
// resolve it: <root>/node_modules/@stratoscli/stratos.
func newRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "package.json"), `{"type":"module","private":true}`+"\n")
	writeFile(t, filepath.Join(root, "parent", "package.json"), `{"type":"module","private":true}`+"\n")
	installSDK(t, filepath.Join(root, "node_modules", "@stratoscli", "stratos"))
	return root
}

// compile runs the pinned tsc on files with the pinned flags, laid out as the
// build does (rootDir the discovery root, outDir <workflow>/dist), and
// returns its diagnostics.
func compile(t *testing.T, tc *toolchain.Toolchain, root string, files ...string) (string, error) {
	t.Helper()
	args := append(tc.CompilerFlags(), "--rootDir", root, "--outDir", filepath.Join(root, "parent", "dist"))
	for _, f := range files {
		rel, err := filepath.Rel(root, f)
		if err != nil {
			t.Fatal(err)
		}
		args = append(args, filepath.ToSlash(rel))
	}
	cmd := tc.TscCommand(context.Background(), root, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("run %s: %v", tc.Tsc, err)
	}
	return out.String(), err
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, to, string(data))
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
