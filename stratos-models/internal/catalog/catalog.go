// Package catalog defines catalog.v1.json — the canonical-ID → provider-native-ID
// mapping generated from a pinned Models.dev revision — and its lookups.
// Lookups never guess: an unknown canonical ID and a missing provider
// mapping are distinct errors that name the catalog's source commit.
package catalog

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/stratoscli/stratos/shared/contract/modelsapi"
)

// Schema identifies the file format; a change of shape is a new version.
const Schema = "stratos.models.catalog.v1"

// Origins of a native ID.
const (
	OriginModelsDev = "models.dev" // an explicit, valid base_model in the provider file
	OriginStratos   = "stratos"    // an entry of Stratos's reviewed links.v1.json
)

// Catalog is the whole generated file.
type Catalog struct {
	Schema    string              `json:"schema"`
	Source    Source              `json:"source"`
	Providers map[string]Provider `json:"providers"`
	Models    map[string]*Model   `json:"models"`

	// pending holds model lines not decoded yet (LoadIndexed only). A
	// Catalog is therefore not safe for concurrent use.
	pending map[string][]byte
}

// Source records exactly what the catalog was generated from.
type Source struct {
	Repository string `json:"repository"`
	Commit     string `json:"commit"`
	CommitDate string `json:"commitDate,omitempty"`
	License    string `json:"license,omitempty"`
}

// Provider is one Models.dev provider directory (all of them, linked or not).
type Provider struct {
	Name string `json:"name"`
}

// Model is one canonical model: provider-agnostic facts from
// models/<creator>/<model>.toml plus its explicit provider mappings.
type Model struct {
	Creator          string     `json:"creator"`
	Name             string     `json:"name"`
	Family           string     `json:"family,omitempty"`
	ToolCall         bool       `json:"toolCall"`
	Reasoning        bool       `json:"reasoning"`
	Attachment       bool       `json:"attachment"`
	Temperature      *bool      `json:"temperature,omitempty"`
	OpenWeights      bool       `json:"openWeights"`
	StructuredOutput *bool      `json:"structuredOutput,omitempty"` // absent: not stated upstream
	Limit            Limit      `json:"limit"`
	Modalities       Modalities `json:"modalities"`
	ReleaseDate      string     `json:"releaseDate,omitempty"`
	LastUpdated      string     `json:"lastUpdated,omitempty"`
	Knowledge        string     `json:"knowledge,omitempty"`
	// Providers maps a provider ID to its native IDs in byte order, so that
	// "first in the bundled snapshot" is well defined.
	Providers map[string][]NativeID `json:"providers"`
}

// Limit holds token limits; absent values were not stated upstream.
type Limit struct {
	Context int64  `json:"context"`
	Input   *int64 `json:"input,omitempty"`
	Output  *int64 `json:"output,omitempty"`
}

// Modalities lists input and output modalities (text, image, pdf, audio, …).
type Modalities struct {
	Input  []string `json:"input"`
	Output []string `json:"output"`
}

// NativeID is one provider-native model ID and where its link came from.
type NativeID struct {
	ID     string `json:"id"`
	Origin string `json:"origin"`
	// Cost is the provider's price for this ID; absent when Models.dev
	// states none (or states it in a shape the generator does not read).
	Cost *modelsapi.Price `json:"cost,omitempty"`
}

// OutputsText reports whether the model produces text, which every harness
// needs.
func (m *Model) OutputsText() bool {
	for _, o := range m.Modalities.Output {
		if o == "text" {
			return true
		}
	}
	return false
}

// ProviderIDs returns the model's mapped providers in byte order, never nil
// (a model without providers lists them as [] in --json, not null).
func (m *Model) ProviderIDs() []string {
	if len(m.Providers) == 0 {
		return []string{}
	}
	return slices.Sorted(maps.Keys(m.Providers))
}

// Load decodes and checks a whole catalog. The checks are the invariants lookups
// rely on; a catalog that breaks them was not written by the generator.
func Load(data []byte) (*Catalog, error) {
	var c Catalog
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("decode catalog: %w", err)
	}
	if c.Schema != Schema {
		return nil, fmt.Errorf("catalog schema is %q, want %q", c.Schema, Schema)
	}
	if c.Source.Commit == "" {
		return nil, fmt.Errorf("catalog has no source commit")
	}
	for id, m := range c.Models {
		if err := checkModel(id, m); err != nil {
			return nil, err
		}
	}
	return &c, nil
}

func checkModel(id string, m *Model) error {
	if m == nil {
		return fmt.Errorf("catalog model %q is null", id)
	}
	creator, _, ok := strings.Cut(id, "/")
	if !ok || creator != m.Creator {
		return fmt.Errorf("catalog model %q has creator %q", id, m.Creator)
	}
	for p, ids := range m.Providers {
		if len(ids) == 0 {
			return fmt.Errorf("catalog model %q has an empty list for provider %q", id, p)
		}
		for i, n := range ids {
			if n.Origin != OriginModelsDev && n.Origin != OriginStratos {
				return fmt.Errorf("catalog model %q provider %q: native ID %q has unknown origin %q", id, p, n.ID, n.Origin)
			}
			if i > 0 && ids[i-1].ID >= n.ID {
				return fmt.Errorf("catalog model %q provider %q: native IDs are not in byte order at %q", id, p, n.ID)
			}
		}
	}
	return nil
}
