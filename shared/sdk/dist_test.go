package sdk_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/sdk/sdkbuild"
	"github.com/stratoscli/stratos/shared/toolchain/toolchaintest"
)

// TestCommittedDistIsCurrent recompiles src/ with the pinned tsc and fails
// when the committed dist/ (what the binaries embed) differs.
func TestCommittedDistIsCurrent(t *testing.T) {
	tc := toolchaintest.Ensure(t)
	out := filepath.Join(t.TempDir(), "dist")
	if err := sdkbuild.Compile(context.Background(), tc, toolchaintest.Logger(t), "src", out); err != nil {
		t.Fatal(err)
	}
	diff, err := sdkbuild.Diff("dist", out)
	if err != nil {
		t.Fatal(err)
	}
	if len(diff) > 0 {
		t.Fatalf("shared/sdk/dist is out of date with shared/sdk/src (%s differ): run scripts/build-sdk and commit shared/sdk/dist", strings.Join(diff, ", "))
	}
}
