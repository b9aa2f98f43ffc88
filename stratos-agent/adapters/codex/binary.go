package codex

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
)

// binary is the native codex executable and the directory of helper tools
// (rg) the npm package ships beside it; the TS SDK puts that directory on
// PATH, and so does Stratos.
type binary struct {
	path    string
	helpers string // "" when the layout has none
}

// findBinary returns the native codex binary: $STRATOS_CODEX or `codex` on
// PATH. The npm package's `codex` is a node wrapper; Stratos runs the
// native binary it wraps instead (faster start, and signals reach Codex
// itself rather than a node process in front of it).
func findBinary(env []string) (binary, error) {
	name := "codex"
	if v := lookupEnv(env, EnvBinary); v != "" {
		name = v
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return binary{}, unavailable("harness codex is not installed: %s not found (install @openai/codex so `codex` is on PATH, or set %s to the binary)", name, EnvBinary)
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	if !isScript(path) {
		return binary{path: path, helpers: helperDir(filepath.Dir(path))}, nil
	}
	native := nativeBeside(path)
	if native == "" {
		return binary{}, unavailable("harness codex: %s is the npm wrapper and the native binary for %s/%s is not installed beside it (reinstall @openai/codex, or set %s to the native binary)",
			path, runtime.GOOS, runtime.GOARCH, EnvBinary)
	}
	return binary{path: native, helpers: helperDir(filepath.Dir(native))}, nil
}

func unavailable(format string, args ...any) error {
	return rejection.New(rejection.HarnessUnavailable, format, args...).WithDetails(map[string]any{"harness": Harness})
}

// isScript reports a file that starts with "#!" (the node wrapper).
func isScript(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 2)
	n, _ := f.Read(head)
	return bytes.Equal(head[:n], []byte("#!"))
}

// targetTriple is the Rust target the npm package names its vendor
// directory after.
func targetTriple() string {
	arch := map[string]string{"amd64": "x86_64", "arm64": "aarch64"}[runtime.GOARCH]
	switch runtime.GOOS {
	case "linux":
		return arch + "-unknown-linux-musl"
	case "darwin":
		return arch + "-apple-darwin"
	}
	return ""
}

// nativeBeside finds the native binary of the npm wrapper at
// <pkg>/bin/codex.js: in the platform package @openai/codex-<os>-<arch>
// next to <pkg>, or in <pkg>/vendor (older layouts).
func nativeBeside(wrapper string) string {
	pkg := filepath.Dir(filepath.Dir(wrapper))
	triple := targetTriple()
	if triple == "" {
		return ""
	}
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	for _, dir := range []string{
		filepath.Join(filepath.Dir(pkg), "codex-"+runtime.GOOS+"-"+arch, "vendor", triple),
		filepath.Join(pkg, "node_modules", "@openai", "codex-"+runtime.GOOS+"-"+arch, "vendor", triple),
		filepath.Join(pkg, "vendor", triple),
	} {
		p := filepath.Join(dir, "bin", "codex")
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
		p = filepath.Join(dir, "codex", "codex")
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// helperDir is <vendor>/codex-path beside the binary's bin directory.
func helperDir(binDir string) string {
	dir := filepath.Join(filepath.Dir(binDir), "codex-path")
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		return dir
	}
	return ""
}

func lookupEnv(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if rest, ok := strings.CutPrefix(kv, key+"="); ok {
			v = rest
		}
	}
	return v
}

// withEnv returns env with key set to value (replacing earlier values).
func withEnv(env []string, key, value string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, key+"=") {
			out = append(out, kv)
		}
	}
	return append(out, key+"="+value)
}
