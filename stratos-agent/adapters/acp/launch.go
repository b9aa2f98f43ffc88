package acp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/catalog"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
)

// What a named ACP harness's Launch needs of its environment and the
// catalog, the same for every such CLI.

// Getenv is the last value of key in env ("" when it is unset).
func Getenv(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}

// AnySet reports whether one of keys has a value in env (never which).
func AnySet(env []string, keys []string) bool {
	for _, k := range keys {
		if Getenv(env, k) != "" {
			return true
		}
	}
	return false
}

// FindBinary is harness's CLI as its registration d names it: the file
// $d.BinaryEnv names, else d.Binary on env's PATH; a HarnessUnavailable
// rejection saying what to install when there is none.
func FindBinary(env []string, harness string, d adapter.Docs) (string, error) {
	if b := Getenv(env, d.BinaryEnv); d.BinaryEnv != "" && b != "" {
		return b, nil
	}
	for _, dir := range filepath.SplitList(Getenv(env, "PATH")) {
		p := filepath.Join(dir, d.Binary)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", rejection.New(rejection.HarnessUnavailable, "harness %s is not installed: no %s on PATH and %s is not set (npm install -g %s)",
		harness, d.Binary, d.BinaryEnv, d.Install).Wrap(exec.ErrNotFound).WithDetails(map[string]any{"harness": harness})
}

// NativeModel is the session's first model as harness's CLI names it,
// from the catalog; "" when spec.Models is empty (the CLI's own default).
func NativeModel(ctx context.Context, c catalog.Catalog, harness string, spec adapter.Spec) (string, error) {
	if len(spec.Models) == 0 {
		return "", nil
	}
	cands, err := c.Candidates(ctx, catalog.Query{Models: spec.Models[:1], Harness: harness, Provider: spec.Provider})
	if err != nil {
		return "", catalog.Classify(harness, err)
	}
	if len(cands) == 0 {
		return "", rejection.New(rejection.ModelUnavailable, "agent %q: model %s cannot be used through %s", spec.Name, spec.Models[0], harness).
			WithDetails(map[string]any{"harness": harness, "model": spec.Models[0]})
	}
	return cands[0].NativeModel(), nil
}

// Without is env without the variables named in drop (the user's own
// configuration of the CLI), with add after it.
func Without(env, drop []string, add ...string) []string {
	out := make([]string, 0, len(env)+len(add))
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); !slices.Contains(drop, k) {
			out = append(out, kv)
		}
	}
	return append(out, add...)
}

// SystemPrompt is the agent's system prompt followed by the worktree
// context, the parts that are not blank joined by a blank line: what a
// CLI that takes its system prompt as one file is given.
func SystemPrompt(spec adapter.Spec) string {
	var parts []string
	for _, p := range []string{spec.SystemPrompt, spec.HarnessContext} {
		if strings.TrimSpace(p) != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "\n\n")
}
