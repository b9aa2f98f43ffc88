package toolchain

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/toolchainapi"
	"github.com/stratoscli/stratos/shared/procgroup"
)

// typeScriptDirName is the toolchain subdirectory holding the pinned
// TypeScript and @types/node. Both pins are in the name, so changing either
// installs afresh beside the old one instead of mutating it.
var typeScriptDirName = "typescript-" + TypeScriptVersion + "-types-node-" + TypesNodeVersion

// ensureTypeScript installs typescript and @types/node with npm when missing
// and fills tc's TypeScript fields. tsc is the native compiler binary from
// the platform package: the typescript package's bin/tsc is only a node shim
// around it, and the binary must stay beside its lib.*.d.ts files.
func ensureTypeScript(ctx context.Context, opts Options, tc *Toolchain) error {
	platform, arch := npmPlatform(runtime.GOOS, runtime.GOARCH)
	rel := filepath.Join("node_modules", "@typescript", "typescript-"+platform+"-"+arch, "lib", "tsc")
	specs := []string{"typescript@" + TypeScriptVersion, "@types/node@" + TypesNodeVersion}
	verify := func(dir string) error { return checkTsc(ctx, filepath.Join(dir, rel)) }
	dir, err := tc.EnsurePackages(ctx, opts.log(), typeScriptDirName, specs, verify)
	if err != nil {
		return err
	}
	tc.Tsc = filepath.Join(dir, rel)
	tc.TypeScriptVersion = TypeScriptVersion
	tc.TypeRoots = filepath.Join(dir, "node_modules", "@types")
	tc.TypesNodeDir = filepath.Join(tc.TypeRoots, "node")
	if !isExecutableFile(tc.Tsc) {
		return clierr.New(toolchainapi.CodeToolchainBroken, "%s is missing from the TypeScript install in %s: remove that directory and Stratos reinstalls it", tc.Tsc, dir)
	}
	return nil
}

// checkTsc makes sure the native compiler is there and is the pinned version.
func checkTsc(ctx context.Context, tsc string) error {
	if !isExecutableFile(tsc) {
		return clierr.New(toolchainapi.CodeTypeScriptInstallFailed,
			"npm installed typescript %s but not its native compiler %s (is this platform supported by TypeScript %s?)", TypeScriptVersion, tsc, TypeScriptVersion)
	}
	out, err := procgroup.Output(exec.CommandContext(ctx, tsc, "--version"), procgroup.Options{})
	if err != nil {
		return clierr.New(toolchainapi.CodeTypeScriptInstallFailed, "%s --version: %v", tsc, err).Wrap(err)
	}
	if got := strings.TrimSpace(string(out)); got != "Version "+TypeScriptVersion {
		return clierr.New(toolchainapi.CodeTypeScriptInstallFailed, "%s --version printed %q, want %q", tsc, got, "Version "+TypeScriptVersion)
	}
	return nil
}

// TscCommand returns the native tsc with args, run in dir. tsc 7 needs no
// node; its diagnostics go to stdout.
func (tc *Toolchain) TscCommand(ctx context.Context, dir string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, tc.Tsc, args...)
	cmd.Dir = dir
	return cmd
}

// CompilerFlags returns the pinned tsc flags plus --typeRoots pointing at the
// toolchain's @types (so `--types node` finds the pinned @types/node without
// installing it into every root). Add --rootDir, --outDir and the entry files.
func (tc *Toolchain) CompilerFlags() []string {
	return append(append([]string(nil), CompilerFlags...), "--typeRoots", tc.TypeRoots)
}

// Describe is a one-line summary for logs and `stratos-toolchain ensure`.
func (tc *Toolchain) Describe() string {
	return fmt.Sprintf("node v%s (%s) at %s; tsc %s at %s; npm at %s", tc.NodeVersion, tc.NodeSource, tc.Node, tc.TypeScriptVersion, tc.Tsc, tc.NPM)
}
