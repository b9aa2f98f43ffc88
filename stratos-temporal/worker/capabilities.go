package worker

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/stratoscli/stratos/shared/ollama"
	"github.com/stratoscli/stratos/shared/procgroup"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/harnesses"
)

// loginCheckTimeout bounds a harness's own login check (`claude auth
// status`: about 0.5 s; a CLI that hangs is taken as not logged in).
const loginCheckTimeout = 15 * time.Second

// Capability is one harness whose CLI this worker finds, and how it can
// authenticate there. A worker advertises that it has a credential (the
// variable's name, or that the CLI's own login check passed), never the
// credential.
type Capability struct {
	Harness string
	// Credentials are the harness's credential variables that are set.
	Credentials []string
	// LoggedIn: the harness's own login check passed (`claude auth
	// status`, `codex login status`: exit status 0).
	LoggedIn bool
	// NoAuth: the harness needs no credential (the test harness, a
	// generic ACP agent).
	NoAuth bool
	// Ollama: the harness reaches Ollama with its own model names, which
	// needs no credential (provider ollama).
	Ollama bool
	// OllamaModels are the models the worker's Ollama had when it started
	// (OLLAMA_HOST, else the default host), for a harness that reaches it.
	OllamaModels []string
}

// Authenticated reports whether the harness can reach a hosted model
// here: an agent of it goes to this worker only then, or, for provider
// ollama, when it reaches Ollama (engine.OllamaQueue).
func (c Capability) Authenticated() bool {
	return c.NoAuth || c.LoggedIn || len(c.Credentials) > 0
}

// Capabilities are the harnesses whose CLI this worker finds (the one their
// variable names, else on PATH; a harness without a CLI of its own, the test
// harness, is always there) and how each can authenticate. A harness with
// a login check and no credential variable set runs its check once.
func Capabilities(ctx context.Context, getenv func(string) string) []Capability {
	var out []Capability
	for _, h := range harnesses.Builtin(adapter.Options{}) {
		bin, ok := cliOf(h.Docs, getenv)
		if !ok {
			continue
		}
		c := Capability{Harness: h.Name, NoAuth: len(h.Auth.KeyVars) == 0 && h.Auth.Login == ""}
		for _, v := range h.Auth.KeyVars {
			if getenv(v) != "" {
				c.Credentials = append(c.Credentials, v)
			}
		}
		if h.Selection != nil {
			if p := h.Selection.Providers[ollama.Provider]; p != nil && p.NativeNames {
				c.Ollama = true
			}
		}
		if !c.Authenticated() && h.Auth.Login != "" {
			c.LoggedIn = loggedIn(ctx, bin, h.Auth.Login)
		}
		out = append(out, c)
	}
	var models []string
	for i := range out {
		if out[i].Ollama {
			if models == nil {
				models = ollamaModels(ctx, getenv)
			}
			out[i].OllamaModels = models
		}
	}
	slices.SortFunc(out, func(a, b Capability) int { return strings.Compare(a.Harness, b.Harness) })
	return out
}

// cliOf is the harness's CLI on this worker ("" for a harness without one)
// and whether it is there.
func cliOf(d adapter.Docs, getenv func(string) string) (string, bool) {
	if d.Binary == "" {
		return "", true
	}
	if d.BinaryEnv != "" {
		if p := getenv(d.BinaryEnv); p != "" {
			st, err := os.Stat(p)
			return p, err == nil && !st.IsDir()
		}
	}
	p, err := exec.LookPath(d.Binary)
	return p, err == nil
}

// loggedIn runs the harness's login check ("claude auth status": its first
// word names the CLI, which is bin here) and reports whether it passed. Its
// output is not read: it may name the account.
func loggedIn(ctx context.Context, bin, check string) bool {
	args := strings.Fields(check)
	if len(args) == 0 || bin == "" {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, loginCheckTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args[1:]...)
	err := procgroup.Run(cmd, procgroup.Options{})
	return err == nil
}

// ollamaModelsTimeout bounds the question to the worker's Ollama: one
// that is down or slow leaves the worker with no models of its own to
// advertise, not unable to start.
const ollamaModelsTimeout = 5 * time.Second

// ollamaModels are the local models of the worker's Ollama (none when it
// cannot be asked): an agent on provider ollama goes to a worker whose
// Ollama has its model.
func ollamaModels(ctx context.Context, getenv func(string) string) []string {
	names, err := listOllama(ctx, getenv)
	if err != nil {
		return []string{}
	}
	return names
}

// listOllama asks the worker's Ollama for its local models, within
// ollamaModelsTimeout.
func listOllama(ctx context.Context, getenv func(string) string) ([]string, error) {
	host, err := ollama.HostFromEnv(getenv)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, ollamaModelsTimeout)
	defer cancel()
	return ollama.Client{Host: host}.Names(ctx)
}
