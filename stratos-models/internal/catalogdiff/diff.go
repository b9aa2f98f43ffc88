// Package catalogdiff compares two catalogs for release review: added and
// removed canonical models and native IDs, changed first IDs, native IDs
// whose origin moved between Models.dev and Stratos's links, and native IDs
// whose price changed (the host prices unreported turns from it, so a price
// change alone changes what runs cost). Every bump of
// the pinned Models.dev revision is reviewed through this diff.
package catalogdiff

import (
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/stratos-models/internal/catalog"
)

// Diff is the comparison of a previous catalog with a new one. All lists are
// sorted by model, then provider, then native ID.
type Diff struct {
	From             string         `json:"from"`
	To               string         `json:"to"`
	AddedModels      []string       `json:"addedModels"`
	RemovedModels    []string       `json:"removedModels"`
	AddedNativeIDs   []NativeChange `json:"addedNativeIds"`
	RemovedNativeIDs []NativeChange `json:"removedNativeIds"`
	ChangedFirstIDs  []FirstChange  `json:"changedFirstIds"`
	ChangedOrigins   []OriginChange `json:"changedOrigins"`
	ChangedCosts     []CostChange   `json:"changedCosts"`
}

// CostChange is a native ID, in both catalogs, whose price changed
// (appeared, went, or changed a rate); nil is no stated price.
type CostChange struct {
	Model    string           `json:"model"`
	Provider string           `json:"provider"`
	NativeID string           `json:"nativeId"`
	From     *modelsapi.Price `json:"from"`
	To       *modelsapi.Price `json:"to"`
}

// NativeChange is one native ID that appeared or disappeared.
type NativeChange struct {
	Model    string `json:"model"`
	Provider string `json:"provider"`
	NativeID string `json:"nativeId"`
	Origin   string `json:"origin"`
}

// FirstChange is a (model, provider) pair whose first native ID — the one
// a lookup returns — changed.
type FirstChange struct {
	Model    string `json:"model"`
	Provider string `json:"provider"`
	From     string `json:"from"`
	To       string `json:"to"`
}

// OriginChange is a native ID whose link moved between Models.dev and Stratos.
type OriginChange struct {
	Model    string `json:"model"`
	Provider string `json:"provider"`
	NativeID string `json:"nativeId"`
	From     string `json:"from"`
	To       string `json:"to"`
}

// Order ranks a provider's native IDs the way lookups do (variant
// preference); first IDs are compared after it.
type Order func(provider string, ids []catalog.NativeID) []catalog.NativeID

// Compute compares prev with next.
func Compute(prev, next *catalog.Catalog, order Order) *Diff {
	d := &Diff{From: prev.Source.Commit, To: next.Source.Commit,
		AddedModels: []string{}, RemovedModels: []string{}, AddedNativeIDs: []NativeChange{},
		RemovedNativeIDs: []NativeChange{}, ChangedFirstIDs: []FirstChange{}, ChangedOrigins: []OriginChange{}, ChangedCosts: []CostChange{}}
	for _, id := range unionKeys(prev.Models, next.Models) {
		pm, nm := prev.Models[id], next.Models[id]
		switch {
		case pm == nil:
			d.AddedModels = append(d.AddedModels, id)
		case nm == nil:
			d.RemovedModels = append(d.RemovedModels, id)
		}
		d.compareProviders(id, providersOf(pm), providersOf(nm), order)
	}
	return d
}

func providersOf(m *catalog.Model) map[string][]catalog.NativeID {
	if m == nil {
		return nil
	}
	return m.Providers
}

func (d *Diff) compareProviders(model string, prev, next map[string][]catalog.NativeID, order Order) {
	for _, p := range unionKeys(prev, next) {
		before, after := byID(prev[p]), byID(next[p])
		for _, id := range unionKeys(before, after) {
			b, inBefore := before[id]
			a, inAfter := after[id]
			switch {
			case !inBefore:
				d.AddedNativeIDs = append(d.AddedNativeIDs, NativeChange{model, p, id, a.Origin})
				continue
			case !inAfter:
				d.RemovedNativeIDs = append(d.RemovedNativeIDs, NativeChange{model, p, id, b.Origin})
				continue
			}
			if b.Origin != a.Origin {
				d.ChangedOrigins = append(d.ChangedOrigins, OriginChange{model, p, id, b.Origin, a.Origin})
			}
			if !samePrice(b.Cost, a.Cost) {
				d.ChangedCosts = append(d.ChangedCosts, CostChange{model, p, id, b.Cost, a.Cost})
			}
		}
		if len(prev[p]) > 0 && len(next[p]) > 0 {
			from, to := order(p, prev[p])[0].ID, order(p, next[p])[0].ID
			if from != to {
				d.ChangedFirstIDs = append(d.ChangedFirstIDs, FirstChange{model, p, from, to})
			}
		}
	}
}

func byID(ids []catalog.NativeID) map[string]catalog.NativeID {
	m := make(map[string]catalog.NativeID, len(ids))
	for _, n := range ids {
		m[n.ID] = n
	}
	return m
}

// samePrice reports whether a and b state the same rates (both nil: both
// state none).
func samePrice(a, b *modelsapi.Price) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Input == b.Input && a.Output == b.Output &&
		sameRate(a.CacheRead, b.CacheRead) && sameRate(a.CacheWrite, b.CacheWrite) && sameRate(a.Reasoning, b.Reasoning)
}

func sameRate(a, b *float64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// unionKeys returns the keys of a and b in byte order.
func unionKeys[V any](a, b map[string]V) []string {
	seen := make(map[string]bool, len(a)+len(b))
	for k := range a {
		seen[k] = true
	}
	for k := range b {
		seen[k] = true
	}
	return slices.Sorted(maps.Keys(seen))
}

// Empty reports whether nothing changed.
func (d *Diff) Empty() bool {
	return len(d.AddedModels)+len(d.RemovedModels)+len(d.AddedNativeIDs)+len(d.RemovedNativeIDs)+
		len(d.ChangedFirstIDs)+len(d.ChangedOrigins)+len(d.ChangedCosts) == 0
}

// WriteText prints the diff for a reviewer, one change per line.
func (d *Diff) WriteText(w io.Writer) {
	fmt.Fprintf(w, "catalog diff %s → %s\n", short(d.From), short(d.To))
	if d.Empty() {
		fmt.Fprintln(w, "  no changes")
		return
	}
	for _, m := range d.AddedModels {
		fmt.Fprintf(w, "+ model  %s\n", m)
	}
	for _, m := range d.RemovedModels {
		fmt.Fprintf(w, "- model  %s\n", m)
	}
	for _, c := range d.AddedNativeIDs {
		fmt.Fprintf(w, "+ native %s  %s: %s (%s)\n", c.Model, c.Provider, c.NativeID, c.Origin)
	}
	for _, c := range d.RemovedNativeIDs {
		fmt.Fprintf(w, "- native %s  %s: %s (%s)\n", c.Model, c.Provider, c.NativeID, c.Origin)
	}
	for _, c := range d.ChangedFirstIDs {
		fmt.Fprintf(w, "~ first  %s  %s: %s → %s\n", c.Model, c.Provider, c.From, c.To)
	}
	for _, c := range d.ChangedOrigins {
		fmt.Fprintf(w, "~ origin %s  %s: %s %s → %s\n", c.Model, c.Provider, c.NativeID, c.From, c.To)
	}
	for _, c := range d.ChangedCosts {
		fmt.Fprintf(w, "~ cost   %s  %s: %s %s → %s\n", c.Model, c.Provider, c.NativeID, priceText(c.From), priceText(c.To))
	}
	fmt.Fprintf(w, "%d added and %d removed models, %d added and %d removed native IDs, %d changed first IDs, %d changed origins, %d changed costs\n",
		len(d.AddedModels), len(d.RemovedModels), len(d.AddedNativeIDs), len(d.RemovedNativeIDs), len(d.ChangedFirstIDs), len(d.ChangedOrigins), len(d.ChangedCosts))
}

// priceText is a price's rates in dollars per million tokens, e.g.
// "in 3 out 15 cache-read 0.3"; "none" when no price is stated.
func priceText(p *modelsapi.Price) string {
	if p == nil {
		return "none"
	}
	text := fmt.Sprintf("in %g out %g", p.Input, p.Output)
	for _, r := range []struct {
		name string
		rate *float64
	}{{"cache-read", p.CacheRead}, {"cache-write", p.CacheWrite}, {"reasoning", p.Reasoning}} {
		if r.rate != nil {
			text += fmt.Sprintf(" %s %g", r.name, *r.rate)
		}
	}
	return text
}

func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}
