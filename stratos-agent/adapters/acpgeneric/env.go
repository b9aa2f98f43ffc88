package acpgeneric

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/stratoscli/stratos/stratos-agent/adapters/acp"
)

// reference is ${NAME}; "$$" writes a literal "$" (the syntax of
// workflow.yaml's MCP servers).
var reference = regexp.MustCompile(`\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// passedVars are the only variables of the host's environment the agent
// inherits: what finds programs and reads text alike everywhere. Anything
// else (credentials, a CLI's own configuration variables) reaches it only
// through acp.env.
var passedVars = []string{"PATH", "LANG", "LANGUAGE", "TZ"}

// resolveEnv is env, sorted by name, with every ${NAME} replaced by the
// host's value; the first unset or empty reference is an error naming the
// field and the variable (never a value).
func resolveEnv(env map[string]string, host []string) ([]string, error) {
	out := make([]string, 0, len(env))
	for _, k := range slices.Sorted(maps.Keys(env)) {
		var missing string
		v := reference.ReplaceAllStringFunc(env[k], func(ref string) string {
			if ref == "$$" {
				return "$"
			}
			name := ref[2 : len(ref)-1]
			val := acp.Getenv(host, name)
			if val == "" && missing == "" {
				missing = name
			}
			return val
		})
		if missing != "" {
			return nil, fmt.Errorf("acp.env.%s: environment variable %s is not set or empty (referenced as ${%s})", k, missing, missing)
		}
		if rest := reference.ReplaceAllString(env[k], ""); strings.Contains(rest, "${") {
			return nil, fmt.Errorf("acp.env.%s: malformed environment reference (write ${NAME}, NAME made of letters, digits and _; $$ for a literal $)", k)
		}
		out = append(out, k+"="+v)
	}
	return out, nil
}

// inherited are the host's variables the agent keeps (passedVars and the
// locale's LC_*).
func inherited(host []string) []string {
	var out []string
	for _, kv := range host {
		k, _, _ := strings.Cut(kv, "=")
		if slices.Contains(passedVars, k) || strings.HasPrefix(k, "LC_") {
			out = append(out, kv)
		}
	}
	return out
}
