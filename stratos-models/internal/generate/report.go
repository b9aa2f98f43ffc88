package generate

import (
	"fmt"

	"github.com/stratoscli/stratos/stratos-models/internal/catalog"
	"github.com/stratoscli/stratos/stratos-models/internal/modelsdev"
)

// Report says what generation used, skipped and why. It is the JSON output
// of `stratos-models generate --json` (without the diff, which the command
// adds).
type Report struct {
	Source            catalog.Source       `json:"source"`
	Counts            Counts               `json:"counts"`
	DanglingSymlinks  []modelsdev.Dangling `json:"danglingSymlinks"`
	InvalidBaseModels []InvalidBaseModel   `json:"invalidBaseModels"`
	IgnoredFiles      []string             `json:"ignoredFiles"`
	RedundantLinks    []LinkRef            `json:"redundantStratosLinks"`
	UnmappedModels    []string             `json:"unmappedModels"`
	Warnings          []string             `json:"warnings"`

	linksName string // for warnings about links entries
}

// Counts are the headline numbers a reviewer compares between releases.
type Counts struct {
	CanonicalModels   int `json:"canonicalModels"`
	Providers         int `json:"providers"`
	ProviderFiles     int `json:"providerFiles"` // readable provider model files
	ModelsDevLinks    int `json:"modelsDevLinks"`
	StratosLinks      int `json:"stratosLinks"`
	Unlinked          int `json:"unlinked"` // provider files mapped by neither
	DanglingSymlinks  int `json:"danglingSymlinks"`
	InvalidBaseModels int `json:"invalidBaseModels"`
	IgnoredFiles      int `json:"ignoredFiles"`
	UnmappedModels    int `json:"unmappedModels"` // canonical models with no provider at all
}

// InvalidBaseModel is an upstream base_model that names no canonical model.
type InvalidBaseModel struct {
	Path      string `json:"path"`
	Provider  string `json:"provider"`
	NativeID  string `json:"nativeId"`
	BaseModel string `json:"baseModel"`
	Reason    string `json:"reason"`
}

// LinkRef points at one links.v1.json entry.
type LinkRef struct {
	Where    string `json:"where"`
	Provider string `json:"provider"`
	NativeID string `json:"nativeId"`
	Model    string `json:"model"`
}

func newReport(in Input) *Report {
	rep := &Report{
		Source:            in.Source,
		DanglingSymlinks:  append([]modelsdev.Dangling{}, in.Tree.Dangling...),
		InvalidBaseModels: []InvalidBaseModel{},
		IgnoredFiles:      append([]string{}, in.Tree.Ignored...),
		RedundantLinks:    []LinkRef{},
		UnmappedModels:    []string{},
		Warnings:          []string{},
		linksName:         in.LinksName,
	}
	rep.Counts.ProviderFiles = len(in.Tree.Offerings)
	if in.LinksRev != "" && in.LinksRev != in.Source.Commit {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf(
			"%s was reviewed against %s but the source is %s: every entry still resolved, but review them again and update reviewedAgainst",
			in.LinksName, in.LinksRev, in.Source.Commit))
	}
	return rep
}

func (r *Report) finish(cat *catalog.Catalog) {
	r.Counts.CanonicalModels = len(cat.Models)
	r.Counts.Providers = len(cat.Providers)
	r.Counts.DanglingSymlinks = len(r.DanglingSymlinks)
	r.Counts.InvalidBaseModels = len(r.InvalidBaseModels)
	r.Counts.IgnoredFiles = len(r.IgnoredFiles)
	for _, id := range cat.IDs() {
		if len(cat.Models[id].Providers) == 0 {
			r.UnmappedModels = append(r.UnmappedModels, id)
		}
	}
	r.Counts.UnmappedModels = len(r.UnmappedModels)
	for _, rl := range r.RedundantLinks {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%s %s (%s:%s → %s) is now an upstream base_model link; drop it at the next review",
			r.linksName, rl.Where, rl.Provider, rl.NativeID, rl.Model))
	}
}
