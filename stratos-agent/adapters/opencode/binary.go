package opencode

import (
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
)

// findBinary returns the opencode executable: $STRATOS_OPENCODE or
// `opencode` on PATH. The npm package's `opencode` is a node wrapper that
// runs the Bun-compiled binary of the platform package; either works, the
// binary itself starts faster and receives signals directly.
func findBinary(env []string) (string, error) {
	name := "opencode"
	if v := lookupEnv(env, EnvBinary); v != "" {
		name = v
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return "", rejection.New(rejection.HarnessUnavailable,
			"harness opencode is not installed: %s not found (install opencode-ai so `opencode` is on PATH, or set %s to the binary)", name, EnvBinary).
			WithDetails(map[string]any{"harness": Harness})
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	return path, nil
}

// lookupEnv is the value of key in env ("" when absent).
func lookupEnv(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

// withEnv returns env with key set to value (replacing any earlier value).
func withEnv(env []string, key, value string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k != key {
			out = append(out, kv)
		}
	}
	return append(out, key+"="+value)
}
