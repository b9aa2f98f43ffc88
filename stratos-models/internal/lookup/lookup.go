// Package lookup answers model questions from the catalog and the provider
// mapping together: which native ID a canonical model has on a provider,
// with the provider's reviewed variant preference applied.
package lookup

import (
	"fmt"

	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/stratos-models/data"
	"github.com/stratoscli/stratos/stratos-models/internal/catalog"
	"github.com/stratoscli/stratos/stratos-models/internal/providermap"
)

// OriginOllama marks a native Ollama name passed through untranslated.
const OriginOllama = "ollama"

// Data is a loaded catalog with its provider mapping.
type Data struct {
	Catalog *catalog.Catalog
	Mapping *providermap.Mapping
}

// Embedded loads the data shipped in the binary.
func Embedded() (*Data, error) {
	return Load(data.Catalog(), data.ProviderMapping())
}

// Load decodes a catalog and a provider mapping.
func Load(catalogJSON, mappingJSON []byte) (*Data, error) {
	cat, err := catalog.LoadIndexed(catalogJSON)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", data.CatalogName, err)
	}
	m, err := providermap.Parse(mappingJSON)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", data.ProviderMappingName, err)
	}
	return &Data{Catalog: cat, Mapping: m}, nil
}

// Resolution is the native ID to request for a model on a provider.
type Resolution struct {
	Model    string `json:"model"`
	Provider string `json:"provider"`
	NativeID string `json:"nativeId"`
	Origin   string `json:"origin"`
	// Cost is the provider's price for NativeID (absent: not stated).
	Cost *modelsapi.Price `json:"cost,omitempty"`
	// Alternatives lists every mapped native ID in preference order; the
	// first is NativeID.
	Alternatives  []catalog.NativeID `json:"alternatives"`
	CatalogCommit string             `json:"catalogCommit"`
}

// Resolve returns the first native ID of model on provider after the
// provider's variant preference. For a native-names provider (Ollama) model
// is already the provider's own name and only its tag is normalized.
func (d *Data) Resolve(model, provider string) (*Resolution, error) {
	if d.NativeNamesProvider(provider) {
		name, err := NormalizeOllamaName(model)
		if err != nil {
			return nil, err
		}
		id := catalog.NativeID{ID: name, Origin: OriginOllama}
		return &Resolution{Model: model, Provider: provider, NativeID: name, Origin: OriginOllama,
			Alternatives: []catalog.NativeID{id}, CatalogCommit: d.Catalog.Source.Commit}, nil
	}
	ids, err := d.Catalog.NativeIDs(model, provider)
	if err != nil {
		return nil, err
	}
	ordered := d.Ordered(provider, ids)
	return &Resolution{
		Model: model, Provider: provider, NativeID: ordered[0].ID, Origin: ordered[0].Origin, Cost: ordered[0].Cost,
		Alternatives: ordered, CatalogCommit: d.Catalog.Source.Commit,
	}, nil
}

// Ordered applies provider's variant preference to catalog IDs.
func (d *Data) Ordered(provider string, ids []catalog.NativeID) []catalog.NativeID {
	return providermap.Order(d.Mapping, provider, ids, func(n catalog.NativeID) string { return n.ID })
}

// NativeNamesProvider reports whether provider takes the provider's own
// model names (Ollama tags) in place of canonical IDs, for some harness.
func (d *Data) NativeNamesProvider(provider string) bool {
	for _, h := range d.Mapping.Harnesses {
		if hp, ok := h.Providers[provider]; ok && hp != nil && hp.NativeNames {
			return true
		}
	}
	return false
}

// CheckProvider accepts catalog providers and native-names providers.
func (d *Data) CheckProvider(provider string) error {
	if d.NativeNamesProvider(provider) {
		return nil
	}
	return d.Catalog.CheckProvider(provider)
}
