package providermap

import (
	"sort"
	"strings"
)

// Order returns ids ranked by provider's VariantOrder, most preferred first;
// ids keeps byte order within a rank. Without rules the order is unchanged,
// which is the catalog's byte order. id extracts the native ID string.
func Order[T any](m *Mapping, provider string, ids []T, id func(T) string) []T {
	out := append([]T(nil), ids...)
	r := m.Providers[provider]
	if r == nil || len(r.VariantOrder) == 0 {
		return out
	}
	sort.SliceStable(out, func(i, j int) bool {
		return r.rank(id(out[i])) < r.rank(id(out[j]))
	})
	return out
}

// rank is the index of the first listed prefix nativeID starts with; IDs
// with none of them rank at the position of "" (or last without one).
func (r *ProviderRules) rank(nativeID string) int {
	other := len(r.VariantOrder)
	for i, prefix := range r.VariantOrder {
		if prefix == "" {
			other = i
			continue
		}
		if strings.HasPrefix(nativeID, prefix) {
			return i
		}
	}
	return other
}
