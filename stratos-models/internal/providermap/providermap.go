// Package providermap reads provider-mapping.v1.json: Stratos's hand-kept
// table of how each harness reaches each provider (Claude Code backend
// flags, Codex model_provider tables, OpenCode provider IDs), which
// harness is first party for which creator, and which regional variant of a
// native ID to prefer. Models.dev supplies identities; these harness facts
// are Stratos's own and are never inferred from Models.dev.
package providermap

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/stratoscli/stratos/shared/contract/modelsapi"
)

// Schema identifies the file format.
const Schema = "stratos.models.provider-mapping.v1"

// Mapping is the whole file.
type Mapping struct {
	Schema    string                    `json:"schema"`
	Harnesses map[string]*Harness       `json:"harnesses"`
	Providers map[string]*ProviderRules `json:"providers"`
}

// Harness describes one harness's relation to models and providers: the
// rules its package declares (modelsapi.HarnessRules).
type Harness struct {
	modelsapi.HarnessRules
}

// HarnessProvider is the native configuration an adapter needs for one
// provider.
type HarnessProvider = modelsapi.HarnessProvider

// ProviderRules are provider-wide rules that hold for every harness.
type ProviderRules struct {
	// VariantOrder ranks native IDs by prefix, most preferred first; ""
	// stands for IDs with none of the listed prefixes. Byte order breaks
	// ties, so the choice stays repeatable.
	VariantOrder []string `json:"variantOrder,omitempty"`
	Note         string   `json:"note,omitempty"`
}

// Parse decodes and checks a mapping file. Unknown fields are errors so a
// typo cannot silently drop a backend flag.
func Parse(data []byte) (*Mapping, error) {
	var m Mapping
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("decode provider mapping: %w", err)
	}
	if m.Schema != Schema {
		return nil, fmt.Errorf("provider mapping schema is %q, want %q", m.Schema, Schema)
	}
	if err := m.check(); err != nil {
		return nil, fmt.Errorf("provider mapping: %w", err)
	}
	return &m, nil
}

func (m *Mapping) check() error {
	firstParty := map[string]string{}
	secondPass := ""
	for _, id := range m.HarnessIDs() {
		h := m.Harnesses[id]
		if h == nil {
			return fmt.Errorf("harness %q is null", id)
		}
		if c := h.FirstPartyCreator; c != "" {
			if other, dup := firstParty[c]; dup {
				return fmt.Errorf("creator %q is first party for both %q and %q", c, other, id)
			}
			firstParty[c] = id
		}
		if h.SecondPass {
			if secondPass != "" {
				return fmt.Errorf("both %q and %q take automatic selection's second pass; at most one can", secondPass, id)
			}
			secondPass = id
		}
		if err := h.checkProviderIDs(id); err != nil {
			return err
		}
		defaults := []string{h.DefaultProvider}
		for _, p := range h.DefaultProviderByCreator {
			defaults = append(defaults, p)
		}
		for _, p := range defaults {
			if p != "" && !h.Supports(p, nil) {
				return fmt.Errorf("harness %q: default provider %q is not one of its providers", id, p)
			}
		}
	}
	for id, r := range m.Providers {
		if r == nil {
			return fmt.Errorf("provider rules for %q are null", id)
		}
	}
	return nil
}

// Harness returns the named harness or an error listing the known ones.
func (m *Mapping) Harness(id string) (*Harness, error) {
	h, ok := m.Harnesses[id]
	if !ok {
		return nil, fmt.Errorf("unknown harness %q (known: %s)", id, strings.Join(m.HarnessIDs(), ", "))
	}
	return h, nil
}

// HarnessIDs returns the harness IDs in byte order.
func (m *Mapping) HarnessIDs() []string {
	ids := make([]string, 0, len(m.Harnesses))
	for id := range m.Harnesses {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// FirstPartyHarness returns the harness whose first-party creator is
// creator, or "".
func (m *Mapping) FirstPartyHarness(creator string) string {
	for _, id := range m.HarnessIDs() {
		if m.Harnesses[id].FirstPartyCreator == creator {
			return id
		}
	}
	return ""
}

// checkProviderIDs refuses a provider ID on a harness that does not name
// its models by provider, where nothing would read it.
func (h *Harness) checkProviderIDs(id string) error {
	if h.QualifiedModels {
		return nil
	}
	for _, p := range h.ProviderIDs() {
		if hp := h.Providers[p]; hp != nil && hp.ProviderID != "" {
			return fmt.Errorf("harness %q: provider %q names providerId %q, but the harness's model strings are not qualified by provider (qualifiedModels)", id, p, hp.ProviderID)
		}
	}
	return nil
}

// SecondPassHarness returns the harness that takes automatic selection's
// second pass, or "" when none does.
func (m *Mapping) SecondPassHarness() string {
	for _, id := range m.HarnessIDs() {
		if m.Harnesses[id].SecondPass {
			return id
		}
	}
	return ""
}

// Supports reports whether the harness can use provider. isCatalogProvider
// (nil: assume yes) tells whether provider is a Models.dev provider.
func (h *Harness) Supports(provider string, isCatalogProvider func(string) bool) bool {
	if _, ok := h.Providers[provider]; ok {
		return true
	}
	return h.CatalogProviders && (isCatalogProvider == nil || isCatalogProvider(provider))
}

// RunsCreator reports whether the harness can run models of creator.
func (h *Harness) RunsCreator(creator string) bool {
	if len(h.Creators) == 0 {
		return true
	}
	for _, c := range h.Creators {
		if c == creator {
			return true
		}
	}
	return false
}

// DefaultProviderFor returns the backend for a model of creator when none
// is configured, or "".
func (h *Harness) DefaultProviderFor(creator string) string {
	if p, ok := h.DefaultProviderByCreator[creator]; ok {
		return p
	}
	return h.DefaultProvider
}

// Native returns the harness's native configuration for provider; for
// catalog providers without an entry it is empty.
func (h *Harness) Native(provider string) HarnessProvider {
	if hp, ok := h.Providers[provider]; ok && hp != nil {
		return *hp
	}
	return HarnessProvider{}
}

// ProviderIDs returns the harness's explicitly listed providers in byte order.
func (h *Harness) ProviderIDs() []string {
	ids := make([]string, 0, len(h.Providers))
	for id := range h.Providers {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// WithHarnesses returns a copy of m whose harnesses are rules (the
// registered harnesses a caller sent), checked like a parsed file.
func (m *Mapping) WithHarnesses(rules map[string]modelsapi.HarnessRules) (*Mapping, error) {
	out := &Mapping{Schema: m.Schema, Providers: m.Providers, Harnesses: make(map[string]*Harness, len(rules))}
	for id, r := range rules {
		out.Harnesses[id] = &Harness{HarnessRules: r}
	}
	if err := out.check(); err != nil {
		return nil, err
	}
	return out, nil
}
