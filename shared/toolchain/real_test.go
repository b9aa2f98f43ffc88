package toolchain_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/toolchain"
	"github.com/stratoscli/stratos/shared/toolchain/toolchaintest"
)

// TestRealToolchain compiles and runs a small program that uses node's own
// types with the toolchain as a workflow build would: native tsc with the
// pinned flags (no tsconfig), then node.
func TestRealToolchain(t *testing.T) {
	tc := toolchaintest.Ensure(t)
	ctx := context.Background()

	out, err := tc.TscCommand(ctx, t.TempDir(), "--version").Output()
	if err != nil || strings.TrimSpace(string(out)) != "Version "+toolchain.TypeScriptVersion {
		t.Fatalf("tsc --version = %q, %v", out, err)
	}
	if _, err := os.Stat(filepath.Join(tc.TypesNodeDir, "package.json")); err != nil {
		t.Fatalf("@types/node: %v", err)
	}

	root := t.TempDir()
	write(t, filepath.Join(root, "package.json"), `{"type":"module"}`)
	write(t, filepath.Join(root, "src", "main.ts"), `import { AsyncLocalStorage } from "node:async_hooks";
const als = new AsyncLocalStorage<string>();
als.run("inside", () => setImmediate(() => console.log(als.getStore(), process.versions.node)));
`)
	args := append(tc.CompilerFlags(), "--rootDir", "src", "--outDir", "dist", "src/main.ts")
	if out, err := tc.TscCommand(ctx, root, args...).CombinedOutput(); err != nil {
		t.Fatalf("tsc: %v\n%s", err, out)
	}
	out, err = tc.NodeCommand(ctx, filepath.Join(root, "dist", "main.js")).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	if got := strings.TrimSpace(string(out)); got != "inside "+tc.NodeVersion {
		t.Errorf("program printed %q, want %q", got, "inside "+tc.NodeVersion)
	}
}

// TestEnsurePackagesFailure checks that a failed npm install reports npm's
// own message and leaves nothing that looks installed.
func TestEnsurePackagesFailure(t *testing.T) {
	base := toolchaintest.Ensure(t)
	tc := *base
	tc.Dir = t.TempDir()
	_, err := tc.EnsurePackages(context.Background(), toolchaintest.Logger(t), "broken", []string{"zod@0.0.0-no-such-version"}, nil)
	var ce *clierr.Error
	if !errors.As(err, &ce) || ce.Code != "npm_failed" {
		t.Fatalf("error = %v, want npm_failed", err)
	}
	if !strings.Contains(ce.Message, "zod@0.0.0-no-such-version") || !strings.Contains(ce.Message, "ETARGET") {
		t.Errorf("message should carry npm's own explanation:\n%s", ce.Message)
	}
	entries, _ := os.ReadDir(tc.Dir)
	for _, e := range entries {
		if e.Name() != ".lock" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkEnsureReady measures Ensure when everything is already
// provisioned: the cost every Stratos command pays to find its toolchain.
func BenchmarkEnsureReady(b *testing.B) {
	dir := toolchaintest.Dir(b)
	toolchaintest.Ensure(b)
	for b.Loop() {
		if _, err := toolchain.Ensure(context.Background(), toolchain.Options{Dir: dir}); err != nil {
			b.Fatal(err)
		}
	}
}
