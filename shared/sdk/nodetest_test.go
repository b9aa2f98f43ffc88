package sdk_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/toolchain"
	"github.com/stratoscli/stratos/shared/toolchain/toolchaintest"
)

// TestNodeUnitTests runs the SDK's own unit tests (test/*.test.mjs, with
// `node --test`) against the committed dist/, what the binaries ship. They
// run in a scratch package beside the pinned zod, as the SDK is installed.
func TestNodeUnitTests(t *testing.T) {
	tc := toolchaintest.Ensure(t)
	if major, _ := strconv.Atoi(strings.SplitN(tc.NodeVersion, ".", 2)[0]); major < toolchain.NodeMajor {
		t.Fatalf("the SDK's unit tests need node >= %d for `node --test`; the test toolchain has %s at %s: run scripts/prepare-test-cache", toolchain.NodeMajor, tc.NodeVersion, tc.Node)
	}
	work := scratchPackage(t, tc)
	files, err := fs.Glob(os.DirFS(work), "test/*.test.mjs")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test/*.test.mjs to run (err %v)", err)
	}
	cmd := tc.NodeCommand(context.Background(), append([]string{"--test", "--test-reporter=spec"}, files...)...)
	cmd.Dir = work
	out, err := cmd.CombinedOutput()
	t.Logf("node --test:\n%s", out)
	if err != nil {
		t.Fatalf("the SDK's node unit tests failed (%v); output above", err)
	}
}

// TestErrorCodesNarrow compiles test/types/*.ts against the committed
// declarations with the flags workflows are compiled with: error codes are
// string-literal unions that narrow an error to its class.
func TestErrorCodesNarrow(t *testing.T) {
	tc := toolchaintest.Ensure(t)
	work := scratchPackage(t, tc)
	files, err := fs.Glob(os.DirFS(work), "test/types/*.ts")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test/types/*.ts to compile (err %v)", err)
	}
	args := append(tc.CompilerFlags(), "--noEmit")
	out, err := tc.TscCommand(context.Background(), work, append(args, files...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("tsc on test/types failed (%v):\n%s", err, out)
	}
}

// scratchPackage is a package with copies of dist/ and test/ and the
// pinned zod in node_modules, laid out as the SDK is installed.
func scratchPackage(t *testing.T, tc *toolchain.Toolchain) string {
	t.Helper()
	zodDir, err := tc.EnsurePackages(context.Background(), toolchaintest.Logger(t), "sdk-build-zod-"+toolchain.ZodVersion, []string{"zod@" + toolchain.ZodVersion}, nil)
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	for _, dir := range []string{"dist", "test"} {
		if err := os.CopyFS(filepath.Join(work, dir), os.DirFS(dir)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(work, "package.json"), []byte(`{"type":"module"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(zodDir, "node_modules"), filepath.Join(work, "node_modules")); err != nil {
		t.Fatal(err)
	}
	return work
}
