// Package invokedas is how the stratos dispatcher tells the tool it starts
// what the user typed for it (package cliapp documents the variable). It is
// apart from cliapp so that the dispatcher, which only sets it, does not
// link the command-line library and what cliapp brings with it: every
// `stratos …` starts the dispatcher first (docs/performance.md).
package invokedas

import (
	"slices"
	"strings"
)

// Env is the variable: "<tool>=<words>", e.g. "stratos-run=stratos".
const Env = "STRATOS_INVOKED_AS"

// With is env with Env saying that tool runs as words, replacing a value
// inherited from a caller.
func With(env []string, tool, words string) []string {
	out := slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		return strings.HasPrefix(kv, Env+"=")
	})
	return append(out, Env+"="+tool+"="+words)
}
