package claudecode

import (
	"context"
	"errors"
	"io"
	"sort"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/sibling"
)

// Catalog is what the adapter needs from the model catalog
// (stratos-models): the Claude Code backend flags per provider and the
// ordered candidates of an agent's model list.
type Catalog interface {
	// BackendFlags returns, per Models.dev provider, the environment that
	// selects that backend in Claude Code (empty for the Anthropic API).
	BackendFlags(ctx context.Context) (map[string]map[string]string, error)
	// Candidates returns the claude-code candidates for models, in try
	// order. provider is the agent's explicit provider ("" = none); backend
	// is the provider Claude Code is configured for.
	Candidates(ctx context.Context, models []string, provider, backend string) ([]Candidate, error)
}

// Candidate is one model to try: its canonical ID, the provider and the
// native ID and backend flags Claude Code gets.
type Candidate struct {
	Model    string
	Provider string
	NativeID string
	Env      map[string]string
}

// siblingCatalog runs `stratos-models` with JSON (modules never import each
// other).
type siblingCatalog struct {
	stderr io.Writer
}

type mappingDoc struct {
	Harnesses map[string]struct {
		Providers map[string]struct {
			Env map[string]string `json:"env"`
		} `json:"providers"`
	} `json:"harnesses"`
}

func (c siblingCatalog) BackendFlags(ctx context.Context) (map[string]map[string]string, error) {
	var doc mappingDoc
	if err := sibling.RunJSON(ctx, "stratos-models", []string{"mapping", "--json"}, nil, &doc, c.stderr); err != nil {
		return nil, catalogError(err)
	}
	h, ok := doc.Harnesses["claude-code"]
	if !ok {
		return nil, agentproto.Errorf(agentproto.CodeInitialization, "harness claude-code: the provider mapping has no claude-code entry")
	}
	out := map[string]map[string]string{}
	for p, v := range h.Providers {
		out[p] = v.Env
	}
	return out, nil
}

type candidatesDoc struct {
	Candidates []struct {
		Model    string `json:"model"`
		Provider string `json:"provider"`
		NativeID string `json:"nativeId"`
		Native   struct {
			Model string            `json:"model"`
			Env   map[string]string `json:"env"`
		} `json:"native"`
	} `json:"candidates"`
}

func (c siblingCatalog) Candidates(ctx context.Context, models []string, provider, backend string) ([]Candidate, error) {
	args := []string{"candidates", "--harness", "claude-code", "--json"}
	for _, m := range models {
		args = append(args, "--model", m)
	}
	if provider != "" {
		args = append(args, "--provider", provider)
	} else if backend != "" {
		args = append(args, "--backend", "claude-code="+backend)
	}
	var doc candidatesDoc
	if err := sibling.RunJSON(ctx, "stratos-models", args, nil, &doc, c.stderr); err != nil {
		return nil, catalogError(err)
	}
	out := make([]Candidate, len(doc.Candidates))
	for i, cd := range doc.Candidates {
		native := cd.Native.Model
		if native == "" {
			native = cd.NativeID
		}
		out[i] = Candidate{Model: cd.Model, Provider: cd.Provider, NativeID: native, Env: cd.Native.Env}
	}
	return out, nil
}

// catalogError gives a catalog failure the agent error code it means:
// unusable configuration, or a model Claude Code cannot be asked for.
func catalogError(err error) error {
	var ce *clierr.Error
	if !errors.As(err, &ce) {
		return agentproto.Errorf(agentproto.CodeInitialization, "harness claude-code: model catalog: %v", err).Wrap(err)
	}
	code := agentproto.CodeConfiguration
	switch ce.Code {
	case "no_mapping", "no_candidates":
		code = agentproto.CodeModelUnavailable
	case "tool_not_found", "tool_failed":
		code = agentproto.CodeInitialization
	}
	return agentproto.Errorf(code, "harness claude-code: %s", ce.Message).WithDetails(ce.Details).Wrap(err)
}

// backendKeys lists every backend flag the mapping knows, sorted.
func backendKeys(flags map[string]map[string]string) []string {
	set := map[string]bool{}
	for _, env := range flags {
		for k := range env {
			set[k] = true
		}
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// inspectBackend returns the provider Claude Code is configured for in env:
// the provider whose backend flags are all on, else the one without flags
// (the Anthropic API or a native login). Several matching backends are a
// configuration error rather than a guess.
func inspectBackend(flags map[string]map[string]string, env []string) (string, error) {
	var on []string
	plain := ""
	for p, vars := range flags {
		if len(vars) == 0 {
			plain = p
			continue
		}
		all := true
		for k := range vars {
			all = all && envOn(env, k)
		}
		if all {
			on = append(on, p)
		}
	}
	sort.Strings(on)
	switch len(on) {
	case 0:
		return plain, nil
	case 1:
		return on[0], nil
	}
	return "", agentproto.Errorf(agentproto.CodeConfiguration,
		"harness claude-code: the environment selects several backends (%v); set only one, or set the agent's provider", on)
}
