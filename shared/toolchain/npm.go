package toolchain

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/contract/toolchainapi"
	"github.com/stratoscli/stratos/shared/procgroup"
)

// DefaultRegistry is used when neither $npm_config_registry nor npm's own
// configuration names one.
const DefaultRegistry = "https://registry.npmjs.org/"

// findNPM returns the system npm. Stratos does not provision npm: every
// Node.js distribution ships it, and it is needed for workflow dependencies.
func findNPM(opts Options) (string, error) {
	if p := lookPath("npm", opts.getenv("PATH")); p != "" {
		return p, nil
	}
	return "", clierr.New(toolchainapi.CodeNpmNotFound,
		"npm not found on PATH: install Node.js's npm (it comes with Node.js; on Debian/Ubuntu `apt-get install npm`). Stratos uses it to install TypeScript, zod and workflow dependencies")
}

// registryURL is the npm registry Node.js is downloaded from: the one npm
// itself would use, so mirrors and proxies configured for npm apply.
func registryURL(ctx context.Context, opts Options) string {
	if opts.Registry != "" {
		return opts.Registry
	}
	for _, k := range []string{"npm_config_registry", "NPM_CONFIG_REGISTRY"} {
		if v := opts.getenv(k); v != "" {
			return v
		}
	}
	if npm := lookPath("npm", opts.getenv("PATH")); npm != "" {
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		out, err := procgroup.Output(exec.CommandContext(ctx, npm, "config", "get", "registry"), procgroup.Options{})
		if v := strings.TrimSpace(string(out)); err == nil && strings.HasPrefix(v, "http") {
			return v
		}
	}
	return DefaultRegistry
}

// NPMCommand returns npm with args, run in dir. The toolchain's node comes
// first on PATH, so install scripts (native addons, for instance) run on and
// build for the node that will load them.
func (tc *Toolchain) NPMCommand(ctx context.Context, dir string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, tc.NPM, args...)
	cmd.Dir = dir
	cmd.Env = withPathFirst(os.Environ(), filepath.Dir(tc.Node))
	return cmd
}

// RunNPM runs npm with args in dir. On failure the error carries npm's own
// output (code npm_failed); on success that output goes to log at debug level.
func (tc *Toolchain) RunNPM(ctx context.Context, log hclog.Logger, dir string, args ...string) error {
	cmd := tc.NPMCommand(ctx, dir, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// npm runs install scripts as its own children: the watchdog takes them
	// too when this process dies.
	err := procgroup.Run(cmd, procgroup.Options{Watchdog: true})
	text := strings.TrimSpace(out.String())
	if err == nil {
		if text != "" {
			log.Debug("npm output", "dir", dir, "args", args, "output", text)
		}
		return nil
	}
	if ctx.Err() != nil {
		return clierr.New(errcode.CodeInterrupted, "npm %s in %s: %v", strings.Join(args, " "), dir, ctx.Err()).Wrap(ctx.Err())
	}
	if text == "" {
		text = err.Error()
	}
	return clierr.New(toolchainapi.CodeNpmFailed, "npm %s in %s failed:\n%s", strings.Join(args, " "), dir, tail(text, 8000)).Wrap(err).
		WithDetails(map[string]any{"dir": dir, "args": args, "output": tail(text, 8000)})
}

// withPathFirst returns env with dir prepended to PATH.
func withPathFirst(env []string, dir string) []string {
	out := make([]string, 0, len(env)+1)
	found := false
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			kv = "PATH=" + dir + string(os.PathListSeparator) + v
			found = true
		}
		out = append(out, kv)
	}
	if !found {
		out = append(out, "PATH="+dir)
	}
	return out
}

// tail keeps the last n bytes of s: npm puts the cause at the end.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
