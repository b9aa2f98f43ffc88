// Package generate builds catalog.v1.json from a Models.dev source tree and
// Stratos's reviewed links. It is a pure function of its inputs: the same
// tree, revision and links give byte-identical output.
//
// The one mapping rule: a provider file maps to a canonical model only
// through an explicit top-level base_model naming an existing canonical
// file, or through an entry of links.v1.json. File-name coincidences,
// namespace substitutions, punctuation changes and display names never
// create a mapping.
package generate

import (
	"fmt"
	"sort"

	"github.com/stratoscli/stratos/stratos-models/internal/catalog"
	"github.com/stratoscli/stratos/stratos-models/internal/links"
	"github.com/stratoscli/stratos/stratos-models/internal/modelsdev"
)

// DefaultRepository is recorded in the catalog when the caller names none.
const DefaultRepository = "https://github.com/anomalyco/models.dev"

// Input is everything a catalog is a function of.
type Input struct {
	Tree      *modelsdev.Tree
	Source    catalog.Source
	Links     []links.Entry
	LinksName string // the links file, for messages
	LinksRev  string // the commit the links were reviewed against
}

// Build returns the catalog and a report of what was not used and why.
// Invalid upstream links are reported and skipped; a Stratos link that does
// not hold at this revision is an error, because it is a reviewed promise.
func Build(in Input) (*catalog.Catalog, *Report, error) {
	cat := &catalog.Catalog{
		Schema:    catalog.Schema,
		Source:    in.Source,
		Providers: map[string]catalog.Provider{},
		Models:    map[string]*catalog.Model{},
	}
	rep := newReport(in)
	for _, p := range in.Tree.Providers {
		cat.Providers[p.ID] = catalog.Provider{Name: p.Name}
	}
	for _, c := range in.Tree.Canonical {
		m, err := canonicalModel(c)
		if err != nil {
			return nil, nil, err
		}
		cat.Models[c.ID] = m
	}
	offerings := map[string]modelsdev.Offering{}
	for _, o := range in.Tree.Offerings {
		offerings[o.Provider+"\x00"+o.NativeID] = o
		addUpstreamLink(cat, rep, o)
	}
	if err := addStratosLinks(cat, rep, in, offerings); err != nil {
		return nil, nil, err
	}
	for _, m := range cat.Models {
		for p := range m.Providers {
			ids := m.Providers[p]
			sort.Slice(ids, func(i, j int) bool { return ids[i].ID < ids[j].ID })
		}
	}
	rep.finish(cat)
	return cat, rep, nil
}

// addUpstreamLink maps o when its base_model is a string naming a canonical
// model; a base_model that does not is reported as invalid, never mapped.
func addUpstreamLink(cat *catalog.Catalog, rep *Report, o modelsdev.Offering) {
	if o.BaseModel == nil {
		rep.Counts.Unlinked++
		return
	}
	target, isString := o.BaseModel.(string)
	m, known := cat.Models[target]
	if !isString || !known {
		rep.InvalidBaseModels = append(rep.InvalidBaseModels, InvalidBaseModel{
			Path: o.Path, Provider: o.Provider, NativeID: o.NativeID, BaseModel: fmt.Sprint(o.BaseModel),
			Reason: invalidReason(isString),
		})
		return
	}
	m.Providers[o.Provider] = append(m.Providers[o.Provider], catalog.NativeID{ID: o.NativeID, Origin: catalog.OriginModelsDev, Cost: price(o.Cost)})
	rep.Counts.ModelsDevLinks++
}

func invalidReason(isString bool) string {
	if !isString {
		return "base_model is not a string"
	}
	return "base_model names no file under models/"
}

// addStratosLinks applies links.v1.json. Each entry must name an existing
// canonical file and an existing, readable provider file at this revision,
// and must not contradict an upstream base_model.
func addStratosLinks(cat *catalog.Catalog, rep *Report, in Input, offerings map[string]modelsdev.Offering) error {
	dangling := map[string]modelsdev.Dangling{}
	for _, d := range in.Tree.Dangling {
		dangling[d.Path] = d
	}
	commit := in.Source.Commit
	for _, l := range in.Links {
		m, ok := cat.Models[l.Model]
		if !ok {
			return fmt.Errorf("%s %s: canonical model %q has no file models/%s.toml at commit %s", in.LinksName, l.Where, l.Model, l.Model, commit)
		}
		o, ok := offerings[l.Provider+"\x00"+l.NativeID]
		if !ok {
			file := "providers/" + l.Provider + "/models/" + l.NativeID + ".toml"
			if d, isDangling := dangling[file]; isDangling {
				return fmt.Errorf("%s %s: %s is a dangling link (%s: %s) at commit %s", in.LinksName, l.Where, file, d.Target, d.Reason, commit)
			}
			return fmt.Errorf("%s %s: provider file %s does not exist at commit %s", in.LinksName, l.Where, file, commit)
		}
		switch o.BaseModel {
		case nil:
			m.Providers[l.Provider] = append(m.Providers[l.Provider], catalog.NativeID{ID: l.NativeID, Origin: catalog.OriginStratos, Cost: price(o.Cost)})
			rep.Counts.StratosLinks++
			rep.Counts.Unlinked--
		case l.Model:
			// Upstream now says the same thing; the entry can be dropped
			// at the next review. The upstream link is the one recorded.
			rep.RedundantLinks = append(rep.RedundantLinks, LinkRef{Where: l.Where, Provider: l.Provider, NativeID: l.NativeID, Model: l.Model})
		default:
			return fmt.Errorf("%s %s: links %s:%s to %s, but %s has base_model %v at commit %s; review the entry",
				in.LinksName, l.Where, l.Provider, l.NativeID, l.Model, o.Path, o.BaseModel, commit)
		}
	}
	return nil
}
