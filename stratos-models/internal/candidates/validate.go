package candidates

import (
	"maps"
	"slices"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/stratos-models/internal/lookup"
	"github.com/stratoscli/stratos/stratos-models/internal/providermap"
)

// validate rejects requests that no ordering could make sense of. These are
// configuration mistakes, reported before any candidate is considered.
func validate(d *lookup.Data, req Request) error {
	if len(req.Models) == 0 {
		return clierr.Usage(modelsapi.CodeNoModels, "no model given: name at least one model (--model <canonical-id>)")
	}
	if req.Harness != "" {
		if _, err := d.Mapping.Harness(req.Harness); err != nil {
			return clierr.Usage(modelsapi.CodeUnknownHarness, "%v", err).WithDetails(map[string]any{"harness": req.Harness})
		}
	}
	if err := validateBackends(d, req.Backends); err != nil {
		return err
	}
	if req.Provider == "" {
		return validateCanonical(d, req.Models)
	}
	if err := d.CheckProvider(req.Provider); err != nil {
		return err
	}
	if d.NativeNamesProvider(req.Provider) {
		return validateNativeNames(d, req)
	}
	if req.Harness != "" && !d.Mapping.Harnesses[req.Harness].Supports(req.Provider, d.Catalog.HasProvider) {
		return harnessProviderError(req.Harness, req.Provider)
	}
	return validateCanonical(d, req.Models)
}

func validateCanonical(d *lookup.Data, models []string) error {
	for _, m := range models {
		if _, err := d.Catalog.Model(m); err != nil {
			return err
		}
	}
	return nil
}

// validateNativeNames applies the Ollama rules: an explicit harness that
// supports the provider (codex or opencode), and well-formed names.
func validateNativeNames(d *lookup.Data, req Request) error {
	if req.Harness == "" {
		return clierr.Usage(modelsapi.CodeHarnessRequired,
			"provider %s takes native model names and needs an explicit harness (%s); Stratos does not pick one automatically",
			req.Provider, joinHarnesses(supporting(d.Mapping, req.Provider))).
			WithDetails(map[string]any{"provider": req.Provider})
	}
	if _, ok := d.Mapping.Harnesses[req.Harness].Providers[req.Provider]; !ok {
		return harnessProviderError(req.Harness, req.Provider)
	}
	for _, name := range req.Models {
		if _, err := lookup.NormalizeOllamaName(name); err != nil {
			return err
		}
	}
	return nil
}

// validateBackends checks adapter-detected backends: a known harness, a
// provider it supports, and never a native-names provider (those need the
// agent's explicit provider setting).
func validateBackends(d *lookup.Data, backends map[string]string) error {
	for _, h := range slices.Sorted(maps.Keys(backends)) {
		p := backends[h]
		harness, err := d.Mapping.Harness(h)
		if err != nil {
			return clierr.Usage(modelsapi.CodeInvalidBackend, "backend %s=%s: %v", h, p, err)
		}
		if d.NativeNamesProvider(p) {
			return clierr.Usage(modelsapi.CodeInvalidBackend, "backend %s=%s: %s takes native model names; set it as the agent's explicit provider instead", h, p, p)
		}
		if err := d.Catalog.CheckProvider(p); err != nil {
			return clierr.Usage(modelsapi.CodeInvalidBackend, "backend %s=%s: %s", h, p, clierr.As(err).Message)
		}
		if !harness.Supports(p, d.Catalog.HasProvider) {
			return clierr.Usage(modelsapi.CodeInvalidBackend, "backend %s=%s: %s does not support provider %s", h, p, harness.Name, p)
		}
	}
	return nil
}

func harnessProviderError(harness, provider string) error {
	return clierr.Usage(modelsapi.CodeHarnessProviderUnsupported, "harness %s does not support provider %s", harness, provider).
		WithDetails(map[string]any{"harness": harness, "provider": provider})
}

// supporting lists the harnesses that have an explicit entry for provider.
func supporting(m *providermap.Mapping, provider string) []string {
	var out []string
	for _, id := range m.HarnessIDs() {
		if _, ok := m.Harnesses[id].Providers[provider]; ok {
			out = append(out, id)
		}
	}
	return out
}

func joinHarnesses(ids []string) string {
	s := ""
	for i, id := range ids {
		switch {
		case i == 0:
		case i == len(ids)-1:
			s += " or "
		default:
			s += ", "
		}
		s += id
	}
	return s
}
