// Package toolchaintest gives tests a real, provisioned toolchain. Tests
// that need node, npm or tsc call Ensure: it never skips, so a machine that
// cannot provide the toolchain fails those tests loudly.
package toolchaintest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/toolchain"
)

// Dir is the toolchain directory tests use: $STRATOS_TOOLCHAIN_DIR (set by
// scripts/prepare-test-cache), else <test cache>/toolchain where the test
// cache is $STRATOS_TEST_CACHE or ~/.cache/stratos-test.
func Dir(t testing.TB) string {
	if d := os.Getenv(toolchain.EnvDir); d != "" {
		return d
	}
	cache := os.Getenv("STRATOS_TEST_CACHE")
	if cache == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			t.Fatalf("no $%s, no $STRATOS_TEST_CACHE and no home directory: %v", toolchain.EnvDir, err)
		}
		cache = filepath.Join(home, ".cache", "stratos-test")
	}
	return filepath.Join(cache, "toolchain")
}

// Ensure returns the test toolchain, provisioning it on first use.
func Ensure(t testing.TB) *toolchain.Toolchain {
	t.Helper()
	tc, err := toolchain.Ensure(context.Background(), toolchain.Options{Dir: Dir(t), Log: Logger(t)})
	if err != nil {
		t.Fatalf("the tests need the Stratos toolchain (node >= %d, npm, tsc %s): %v", toolchain.NodeMajor, toolchain.TypeScriptVersion, err)
	}
	return tc
}

// Logger returns an hclog logger that writes to the test log.
func Logger(t testing.TB) hclog.Logger {
	return hclog.New(&hclog.LoggerOptions{Name: t.Name(), Output: testWriter{t}, Level: hclog.Debug, DisableTime: true})
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
