package catalog

import (
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/modelsapi"
)

// Model returns the canonical model id or an unknown_model error (exit 2:
// the caller named something that does not exist in this catalog).
func (c *Catalog) Model(id string) (*Model, error) {
	m, ok := c.Models[id]
	if !ok {
		decoded, err := c.decode(id)
		if err != nil {
			return nil, clierr.New(modelsapi.CodeCatalogInvalid, "%v", err).Wrap(err)
		}
		m, ok = decoded, decoded != nil
	}
	if !ok {
		return nil, clierr.Usage(modelsapi.CodeUnknownModel, "unknown canonical model %q (catalog %s)", id, c.Source.Commit).
			WithDetails(map[string]any{"model": id, "catalogCommit": c.Source.Commit})
	}
	return m, nil
}

// HasProvider reports whether provider is a Models.dev provider ID.
func (c *Catalog) HasProvider(provider string) bool {
	_, ok := c.Providers[provider]
	return ok
}

// CheckProvider returns an unknown_provider error for IDs that are not
// Models.dev provider directories.
func (c *Catalog) CheckProvider(provider string) error {
	if c.HasProvider(provider) {
		return nil
	}
	return clierr.Usage(modelsapi.CodeUnknownProvider, "unknown provider %q (catalog %s)", provider, c.Source.Commit).
		WithDetails(map[string]any{"provider": provider, "catalogCommit": c.Source.Commit})
}

// NativeIDs returns every native ID mapped for model on provider, in byte
// order. A known model without an explicit mapping on provider is a
// no_mapping error (exit 1), never a guessed ID.
func (c *Catalog) NativeIDs(model, provider string) ([]NativeID, error) {
	m, err := c.Model(model)
	if err != nil {
		return nil, err
	}
	if err := c.CheckProvider(provider); err != nil {
		return nil, err
	}
	ids, ok := m.Providers[provider]
	if !ok {
		return nil, clierr.New(modelsapi.CodeNoMapping,
			"no explicit mapping for %s on provider %s (catalog %s): no Models.dev base_model link and no Stratos link",
			model, provider, c.Source.Commit).
			WithDetails(map[string]any{
				"model": model, "provider": provider, "catalogCommit": c.Source.Commit,
				"mappedProviders": m.ProviderIDs(),
			})
	}
	return ids, nil
}
