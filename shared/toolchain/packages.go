package toolchain

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/toolchainapi"
)

// EnsurePackages makes sure <Dir>/<name>/node_modules holds the npm packages
// specs (exact versions, e.g. "zod@4.6.7") and returns <Dir>/<name>. The
// install runs in a temporary directory under the toolchain lock; verify (may
// be nil) checks it, and only then is it renamed to <name>. So a directory
// named <name> is always a complete install, and concurrent processes install
// once.
func (tc *Toolchain) EnsurePackages(ctx context.Context, log hclog.Logger, name string, specs []string, verify func(dir string) error) (string, error) {
	final := filepath.Join(tc.Dir, name)
	if _, err := os.Stat(final); err == nil {
		return final, nil
	}
	unlock, err := lockDir(ctx, tc.Dir, log)
	if err != nil {
		return "", err
	}
	defer unlock()
	if _, err := os.Stat(final); err == nil {
		return final, nil
	}
	log.Info(fmt.Sprintf("installing %v into %s", specs, final))
	tmp, err := os.MkdirTemp(tc.Dir, tempPrefix+name+"-")
	if err != nil {
		return "", clierr.New(toolchainapi.CodeToolchainDir, "create a temporary directory in %s: %v", tc.Dir, err).Wrap(err)
	}
	defer os.RemoveAll(tmp) // a no-op after the rename below
	manifest, _ := json.Marshal(map[string]any{"private": true, "description": "Stratos toolchain: " + name})
	if err := os.WriteFile(filepath.Join(tmp, "package.json"), append(manifest, '\n'), 0o644); err != nil {
		return "", clierr.New(toolchainapi.CodeToolchainDir, "write %s: %v", tmp, err).Wrap(err)
	}
	args := append([]string{"install", "--no-audit", "--no-fund", "--no-update-notifier", "--save-exact",
		"--ignore-scripts", "--prefer-offline"}, specs...)
	if err := tc.RunNPM(ctx, log, tmp, args...); err != nil {
		return "", err
	}
	if verify != nil {
		if err := verify(tmp); err != nil {
			return "", err
		}
	}
	if err := os.Rename(tmp, final); err != nil {
		return "", clierr.New(toolchainapi.CodeToolchainDir, "move the install into %s: %v", final, err).Wrap(err)
	}
	return final, nil
}
