// Package harnesses is where Stratos finds its harnesses: the built-in
// registrations, one line each, and the Registry every consumer reads them
// through — the agent host, `stratos tools list`, harness selection and the
// documentation checks. Everything about one harness is declared in its own
// package (adapter.Harness); adding a harness is one line in Builtin
// (docs/design/harness-registration.md).
package harnesses

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapters/acpgeneric"
	"github.com/stratoscli/stratos/stratos-agent/adapters/claudecode"
	"github.com/stratoscli/stratos/stratos-agent/adapters/codex"
	"github.com/stratoscli/stratos/stratos-agent/adapters/gemini"
	"github.com/stratoscli/stratos/stratos-agent/adapters/opencode"
	"github.com/stratoscli/stratos/stratos-agent/adapters/qwen"
	testharness "github.com/stratoscli/stratos/stratos-agent/adapters/test"
	"github.com/stratoscli/stratos/stratos-agent/tools"
)

// Builtin are the harnesses Stratos ships, with opts for their factories.
func Builtin(opts adapter.Options) []adapter.Harness {
	return []adapter.Harness{
		acpgeneric.Registration(opts),
		claudecode.Registration(opts),
		codex.Registration(opts),
		gemini.Registration(opts),
		opencode.Registration(opts),
		qwen.Registration(opts),
		testharness.Registration(),
	}
}

// Registry is a set of registered harnesses, immutable once made.
type Registry struct {
	byName map[string]adapter.Harness
	tools  *tools.Table
}

// New checks and indexes registrations: every harness needs a name and a
// factory, a name is registered once, and its tool declaration (if any)
// is under its own name. These are programming errors in a harness
// package, reported as errors so a test can name the one at fault.
func New(hs ...adapter.Harness) (*Registry, error) {
	r := &Registry{byName: make(map[string]adapter.Harness, len(hs))}
	var decls []tools.Declaration
	for _, h := range hs {
		switch {
		case h.Name == "":
			return nil, fmt.Errorf("harness registration without a name (title %q)", h.Title)
		case h.New == nil:
			return nil, fmt.Errorf("harness %s: registration without a factory", h.Name)
		case h.Tools != nil && string(h.Tools.Harness) != h.Name:
			return nil, fmt.Errorf("harness %s: its tools are declared for %q", h.Name, h.Tools.Harness)
		}
		if _, dup := r.byName[h.Name]; dup {
			return nil, fmt.Errorf("harness %s is registered twice", h.Name)
		}
		r.byName[h.Name] = h
		if h.Tools != nil {
			decls = append(decls, *h.Tools)
		}
	}
	t, err := tools.NewTable(decls...)
	if err != nil {
		return nil, err
	}
	r.tools = t
	return r, nil
}

// Lookup returns the harness called name.
func (r *Registry) Lookup(name string) (adapter.Harness, bool) {
	h, ok := r.byName[name]
	return h, ok
}

// Names returns every registered name, sorted.
func (r *Registry) Names() []string {
	return slices.Sorted(maps.Keys(r.byName))
}

// All returns every registration, sorted by name.
func (r *Registry) All() []adapter.Harness {
	out := make([]adapter.Harness, 0, len(r.byName))
	for _, n := range r.Names() {
		out = append(out, r.byName[n])
	}
	return out
}

// Map returns the registrations by name: a fresh map the caller owns.
func (r *Registry) Map() map[string]adapter.Harness {
	return maps.Clone(r.byName)
}

// Tools is the table of every registered harness's built-in tools.
func (r *Registry) Tools() *tools.Table { return r.tools }

// Rules are the selection rules of every harness that has them, by name:
// what harness selection (stratos-models candidates) orders candidates by.
// They are a deep copy the caller owns: the registrations point at their
// packages' variables, which must not change under another reader.
func (r *Registry) Rules() map[string]modelsapi.HarnessRules {
	out := map[string]modelsapi.HarnessRules{}
	for name, h := range r.byName {
		if h.Selection != nil {
			out[name] = cloneRules(*h.Selection)
		}
	}
	return out
}

// cloneRules copies every slice and map of rules, and each provider entry.
func cloneRules(rules modelsapi.HarnessRules) modelsapi.HarnessRules {
	rules.Creators = slices.Clone(rules.Creators)
	rules.DefaultProviderByCreator = maps.Clone(rules.DefaultProviderByCreator)
	providers := rules.Providers
	rules.Providers = make(map[string]*modelsapi.HarnessProvider, len(providers))
	for id, p := range providers {
		if p != nil {
			c := *p
			c.Env = maps.Clone(p.Env)
			p = &c
		}
		rules.Providers[id] = p
	}
	return rules
}

// ReachingProvider returns, sorted, the harnesses whose rules reach
// provider with the provider's own model names (for ollama: codex and
// opencode).
func (r *Registry) ReachingProvider(provider string) []string {
	var out []string
	for _, name := range r.Names() {
		if s := r.byName[name].Selection; s != nil {
			if p := s.Providers[provider]; p != nil && p.NativeNames {
				out = append(out, name)
			}
		}
	}
	return out
}

// Unknown is the error for a harness name no registration has.
func (r *Registry) Unknown(name string) error {
	return fmt.Errorf("unknown harness %q (known: %s)", name, strings.Join(r.Names(), ", "))
}
