package worker

import (
	"os"
	"os/exec"
	"slices"

	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/harnesses"
)

// Capability is one harness this worker can run, and whether a credential
// variable of it is set (its name only: a worker advertises that it has a
// credential, never the credential).
type Capability struct {
	Harness     string
	Credentials []string
}

// Capabilities are the harnesses whose CLI this worker finds (the one their
// variable names, else on PATH); a harness without a CLI of its own (the
// test harness) is always there.
func Capabilities(getenv func(string) string) []Capability {
	var out []Capability
	for _, h := range harnesses.Builtin(adapter.Options{}) {
		if !runnable(h.Docs, getenv) {
			continue
		}
		c := Capability{Harness: h.Name}
		for _, v := range h.Auth.KeyVars {
			if getenv(v) != "" {
				c.Credentials = append(c.Credentials, v)
			}
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b Capability) int {
		if a.Harness < b.Harness {
			return -1
		}
		return 1
	})
	return out
}

func runnable(d adapter.Docs, getenv func(string) string) bool {
	if d.Binary == "" {
		return true
	}
	if d.BinaryEnv != "" {
		if p := getenv(d.BinaryEnv); p != "" {
			st, err := os.Stat(p)
			return err == nil && !st.IsDir()
		}
	}
	_, err := exec.LookPath(d.Binary)
	return err == nil
}
