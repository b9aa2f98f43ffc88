package toolchain

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/toolchainapi"
	"github.com/stratoscli/stratos/shared/procgroup"
)

// ensureNode fills tc.Node/NodeVersion/NodeSource: $STRATOS_NODE when set (an
// error if it is too old: the user asked for that one), else a node >= 24 on
// PATH, else the provisioned pinned build, downloading it when missing.
func ensureNode(ctx context.Context, opts Options, tc *Toolchain) error {
	if want := opts.getenv(EnvNode); want != "" {
		return useExplicitNode(ctx, opts, tc, want)
	}
	pathNote := "no node on PATH"
	if p := lookPath("node", opts.getenv("PATH")); p != "" {
		v, major, err := cachedNodeVersion(ctx, tc.Dir, p)
		switch {
		case err != nil:
			pathNote = fmt.Sprintf("node on PATH (%s) did not run: %v", p, err)
		case major >= NodeMajor:
			tc.Node, tc.NodeVersion, tc.NodeSource = p, v, "PATH"
			return nil
		default:
			pathNote = fmt.Sprintf("node on PATH (%s) is v%s", p, v)
		}
	}
	return useProvisionedNode(ctx, opts, tc, pathNote)
}

func useExplicitNode(ctx context.Context, opts Options, tc *Toolchain, want string) error {
	p := want
	if !strings.ContainsRune(want, filepath.Separator) {
		p = lookPath(want, opts.getenv("PATH"))
	}
	if p == "" || !isExecutableFile(p) {
		return clierr.New(toolchainapi.CodeNodeNotFound, "%s=%s is not an executable file: point it at a Node.js >= %d binary, or unset it", EnvNode, want, NodeMajor).
			WithDetails(map[string]any{"env": EnvNode, "value": want})
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return clierr.New(toolchainapi.CodeNodeNotFound, "%s=%s: %v", EnvNode, want, err).Wrap(err)
	}
	v, major, err := cachedNodeVersion(ctx, tc.Dir, abs)
	if err != nil {
		return clierr.New(toolchainapi.CodeNodeNotFound, "%s=%s did not run as Node.js: %v", EnvNode, want, err).Wrap(err).
			WithDetails(map[string]any{"env": EnvNode, "value": want})
	}
	if major < NodeMajor {
		return clierr.New(toolchainapi.CodeNodeTooOld,
			"%s=%s is Node.js v%s, but Stratos needs Node.js >= %d: point %s at a newer node, or unset it so that Stratos uses a node >= %d from PATH or provisions Node.js %s itself",
			EnvNode, want, v, NodeMajor, EnvNode, NodeMajor, NodeVersion).
			WithDetails(map[string]any{"env": EnvNode, "value": want, "version": v, "minimumMajor": NodeMajor})
	}
	tc.Node, tc.NodeVersion, tc.NodeSource = abs, v, EnvNode
	return nil
}

// useProvisionedNode uses <dir>/<package>-<version>/bin/node, downloading it
// first when it is not there yet.
func useProvisionedNode(ctx context.Context, opts Options, tc *Toolchain, pathNote string) error {
	platform := opts.Platform
	if platform == "" {
		platform = runtime.GOOS + "/" + runtime.GOARCH
	}
	goos, goarch, _ := strings.Cut(platform, "/")
	pkg, ok := NodePackageFor(goos, goarch)
	if !ok {
		return clierr.New(toolchainapi.CodeNodeNotFound,
			"Stratos needs Node.js >= %d and found none (%s), and it cannot provision Node.js on %s: install Node.js %d and put it on PATH, or set %s to its node binary",
			NodeMajor, pathNote, platform, NodeMajor, EnvNode).
			WithDetails(map[string]any{"platform": platform})
	}
	home := filepath.Join(tc.Dir, pkg.Name+"-"+pkg.Version)
	bin := filepath.Join(home, "bin", "node")
	if !isExecutableFile(bin) {
		if err := provisionNode(ctx, opts, tc.Dir, pkg, home, pathNote); err != nil {
			return err
		}
	}
	tc.Node, tc.NodeVersion, tc.NodeSource = bin, pkg.Version, "provisioned"
	return nil
}

// nodeVersion runs `node --version` and returns "24.22.3" and 24.
func nodeVersion(ctx context.Context, node string) (string, int, error) {
	out, err := procgroup.Output(exec.CommandContext(ctx, node, "--version"), procgroup.Options{})
	if err != nil {
		return "", 0, fmt.Errorf("%s --version: %w", node, err)
	}
	return parseNodeVersion(string(out))
}

func parseNodeVersion(out string) (string, int, error) {
	v := strings.TrimPrefix(strings.TrimSpace(out), "v")
	majorText, _, _ := strings.Cut(v, ".")
	major, err := strconv.Atoi(majorText)
	if err != nil || major <= 0 {
		return "", 0, fmt.Errorf("unexpected `node --version` output %q", strings.TrimSpace(out))
	}
	return v, major, nil
}

// lookPath is exec.LookPath over an explicit PATH value, so callers can
// search an environment other than the process's own.
func lookPath(name, pathEnv string) string {
	for _, d := range filepath.SplitList(pathEnv) {
		if d == "" {
			continue // an empty entry means ".", which a tool must never pick up implicitly
		}
		p := filepath.Join(d, name)
		if isExecutableFile(p) {
			if abs, err := filepath.Abs(p); err == nil {
				return abs
			}
		}
	}
	return ""
}

func isExecutableFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}
