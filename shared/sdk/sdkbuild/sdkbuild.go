// Package sdkbuild compiles the SDK's TypeScript sources (shared/sdk/src)
// into the JavaScript and declarations that are committed in shared/sdk/dist
// and embedded in every Stratos binary. It is repository tooling: it runs in
// scripts/build-sdk and in the test that keeps dist in step with src, never in
// a user's build.
package sdkbuild

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/buildapi"
	"github.com/stratoscli/stratos/shared/toolchain"
)

// ConfigFile is the SDK's tsconfig, beside its src directory: the one source
// of the SDK's compiler options.
const ConfigFile = "tsconfig.json"

// Compile compiles every .ts file under srcDir into outDir (replaced as a
// whole) with the pinned tsc and the tsconfig.json beside srcDir; only
// --typeRoots is added, since where the toolchain keeps @types/node differs
// per machine. The sources import zod for types; it is installed once into
// the toolchain directory and linked into a scratch package that mirrors
// the SDK's own layout (package.json with "type": "module", tsconfig.json,
// node_modules, src), because tsc resolves packages only by walking up from
// the importing file.
func Compile(ctx context.Context, tc *toolchain.Toolchain, log hclog.Logger, srcDir, outDir string) error {
	zodDir, err := tc.EnsurePackages(ctx, log, "sdk-build-zod-"+toolchain.ZodVersion, []string{"zod@" + toolchain.ZodVersion}, nil)
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp(filepath.Dir(outDir), ".sdk-build-")
	if err != nil {
		return fmt.Errorf("create a scratch directory beside %s: %w", outDir, err)
	}
	defer os.RemoveAll(work)
	if _, err := copySources(srcDir, filepath.Join(work, "src")); err != nil {
		return err
	}
	config, err := os.ReadFile(filepath.Join(filepath.Dir(srcDir), ConfigFile))
	if err != nil {
		return fmt.Errorf("read the SDK's compiler options: %w", err)
	}
	if err := os.WriteFile(filepath.Join(work, ConfigFile), config, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(work, "package.json"), []byte(`{"type":"module"}`+"\n"), 0o644); err != nil {
		return err
	}
	if err := os.Symlink(filepath.Join(zodDir, "node_modules"), filepath.Join(work, "node_modules")); err != nil {
		return err
	}
	cmd := tc.TscCommand(ctx, work, "-p", ConfigFile, "--typeRoots", tc.TypeRoots)
	if out, err := cmd.CombinedOutput(); err != nil {
		return clierr.New(buildapi.CodeSDKCompileFailed, "tsc failed on the SDK sources in %s:\n%s", srcDir, strings.TrimSpace(string(out))).Wrap(err)
	}
	return replaceDir(filepath.Join(work, "dist"), outDir)
}

// copySources copies the .ts files under src into dst and returns their
// paths relative to dst's parent, sorted.
func copySources(src, dst string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".ts") {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		files = append(files, filepath.Join("src", rel))
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		return nil, fmt.Errorf("copy the SDK sources from %s: %w", src, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no .ts files in %s", src)
	}
	slices.Sort(files)
	return files, nil
}

// replaceDir moves src to dst, removing what dst held before.
func replaceDir(src, dst string) error {
	old := dst + ".old"
	if err := os.RemoveAll(old); err != nil {
		return err
	}
	if err := os.Rename(dst, old); err != nil && !os.IsNotExist(err) {
		return err
	}
	if err := os.Rename(src, dst); err != nil {
		return err
	}
	return os.RemoveAll(old)
}

// Diff lists the files that differ between two directory trees (missing on
// either side or with other content), sorted; nil when they are the same.
func Diff(a, b string) ([]string, error) {
	fa, err := readTree(a)
	if err != nil {
		return nil, err
	}
	fb, err := readTree(b)
	if err != nil {
		return nil, err
	}
	var diff []string
	for name, data := range fa {
		if other, ok := fb[name]; !ok || !bytes.Equal(data, other) {
			diff = append(diff, name)
		}
	}
	for name := range fb {
		if _, ok := fa[name]; !ok {
			diff = append(diff, name)
		}
	}
	slices.Sort(diff)
	return diff, nil
}

func readTree(root string) (map[string][]byte, error) {
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)], err = os.ReadFile(p)
		return err
	})
	return files, err
}
