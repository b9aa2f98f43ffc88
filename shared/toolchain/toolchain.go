package toolchain

import (
	"context"
	"net/http"
	"os"
	"path/filepath"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/toolchainapi"
	"github.com/stratoscli/stratos/shared/logging"
)

// Environment variables read by Ensure.
const (
	EnvDir  = "STRATOS_TOOLCHAIN_DIR" // toolchain directory (default ~/.stratos/toolchain)
	EnvNode = "STRATOS_NODE"          // node binary to use instead of searching PATH
)

// Toolchain is a ready Node.js + npm + TypeScript installation.
type Toolchain struct {
	Dir               string `json:"dir"`               // the toolchain directory
	Node              string `json:"node"`              // absolute path of node (major >= NodeMajor)
	NodeVersion       string `json:"nodeVersion"`       // e.g. "24.22.3", without the leading v
	NodeSource        string `json:"nodeSource"`        // where Node came from: "STRATOS_NODE", "PATH" or "provisioned"
	NPM               string `json:"npm"`               // absolute path of the system npm
	Tsc               string `json:"tsc"`               // the native TypeScript compiler, run without node
	TypeScriptVersion string `json:"typeScriptVersion"` // e.g. "7.0.2"
	TypeRoots         string `json:"typeRoots"`         // the @types directory to pass as --typeRoots (holds node/)
	TypesNodeDir      string `json:"typesNodeDir"`      // the pinned @types/node package directory
	CompileCacheDir   string `json:"compileCacheDir"`   // NODE_COMPILE_CACHE for every node Stratos starts
}

// Options configure Ensure. The zero value is ready to use.
type Options struct {
	// Dir is the toolchain directory; empty means $STRATOS_TOOLCHAIN_DIR, else
	// ~/.stratos/toolchain.
	Dir string
	// Log receives progress (provisioning, installs); nil means stderr.
	Log hclog.Logger
	// Getenv reads the environment (STRATOS_NODE, PATH, npm_config_registry);
	// nil means os.Getenv. Tests pass their own instead of mutating the process.
	Getenv func(string) string
	// Registry overrides the npm registry used to download Node.js; empty
	// means $npm_config_registry, else `npm config get registry`.
	Registry string
	// HTTPClient downloads Node.js; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Platform overrides runtime.GOOS/GOARCH as "goos/goarch" (tests only).
	Platform string
}

func (o Options) getenv(k string) string {
	if o.Getenv != nil {
		return o.Getenv(k)
	}
	return os.Getenv(k)
}

func (o Options) log() hclog.Logger {
	if o.Log != nil {
		return o.Log
	}
	return logging.New("stratos", os.Stderr)
}

// ResolveDir returns the toolchain directory Options select, as an absolute path.
func (o Options) ResolveDir() (string, error) {
	dir := o.Dir
	if dir == "" {
		dir = o.getenv(EnvDir)
	}
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", clierr.New(toolchainapi.CodeToolchainDir, "cannot find the home directory for ~/.stratos/toolchain (set $%s): %v", EnvDir, err).Wrap(err)
		}
		dir = filepath.Join(home, ".stratos", "toolchain")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", clierr.New(toolchainapi.CodeToolchainDir, "toolchain directory %s: %v", dir, err).Wrap(err)
	}
	return abs, nil
}

// Ensure returns a ready toolchain, provisioning what is missing: Node.js
// (from $STRATOS_NODE, else PATH, else downloaded from the npm registry) and
// the pinned TypeScript compiler with @types/node (installed with npm).
// Concurrent callers are serialized by a lock in the toolchain directory;
// the fast path, when everything is present, takes no lock.
func Ensure(ctx context.Context, opts Options) (*Toolchain, error) {
	tc, err := newToolchain(opts)
	if err != nil {
		return nil, err
	}
	if tc.NPM, err = findNPM(opts); err != nil {
		return nil, err
	}
	if err := ensureNode(ctx, opts, tc); err != nil {
		return nil, err
	}
	if err := ensureTypeScript(ctx, opts, tc); err != nil {
		return nil, err
	}
	return tc, nil
}

// FindNode returns a toolchain with only what running compiled workflows
// needs: Dir, the Node fields and CompileCacheDir (NPM, Tsc and the
// TypeScript fields stay empty). Node is chosen exactly as Ensure chooses
// it, and provisioned when missing. When everything is in place it costs one
// `node --version` of $STRATOS_NODE or of a node on PATH (none for the
// provisioned node) and no lock: `stratos run` calls it on every run.
func FindNode(ctx context.Context, opts Options) (*Toolchain, error) {
	tc, err := newToolchain(opts)
	if err != nil {
		return nil, err
	}
	if err := ensureNode(ctx, opts, tc); err != nil {
		return nil, err
	}
	return tc, nil
}

// newToolchain creates the toolchain directory and its compile cache.
func newToolchain(opts Options) (*Toolchain, error) {
	dir, err := opts.ResolveDir()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, clierr.New(toolchainapi.CodeToolchainDir, "create toolchain directory %s: %v", dir, err).Wrap(err)
	}
	tc := &Toolchain{Dir: dir, CompileCacheDir: filepath.Join(dir, "compile-cache")}
	if err := os.MkdirAll(tc.CompileCacheDir, 0o755); err != nil {
		return nil, clierr.New(toolchainapi.CodeToolchainDir, "create %s: %v", tc.CompileCacheDir, err).Wrap(err)
	}
	return tc, nil
}
