package generate

import "github.com/stratoscli/stratos/shared/contract/modelsapi"

// price reads an offering's [cost] table: dollars per million tokens for
// input and output (both required), cache_read, cache_write and reasoning
// (optional). Anything else in the table (audio rates, long-context tiers)
// is not carried. A table without a numeric input and output rate, or with
// a rate that is not a non-negative number, gives no price: an unpriced
// turn stays "unknown" rather than being priced from a guess.
func price(cost any) *modelsapi.Price {
	table, ok := cost.(map[string]any)
	if !ok {
		return nil
	}
	input, okIn := rate(table, "input")
	output, okOut := rate(table, "output")
	if input == nil || output == nil || !okIn || !okOut {
		return nil
	}
	p := &modelsapi.Price{Input: *input, Output: *output}
	for key, dst := range map[string]**float64{"cache_read": &p.CacheRead, "cache_write": &p.CacheWrite, "reasoning": &p.Reasoning} {
		r, ok := rate(table, key)
		if !ok {
			return nil
		}
		*dst = r
	}
	return p
}

// rate returns table[key] as a rate (nil when absent) and whether it is a
// usable one.
func rate(table map[string]any, key string) (*float64, bool) {
	v, present := table[key]
	if !present {
		return nil, true
	}
	var f float64
	switch n := v.(type) {
	case int64:
		f = float64(n)
	case float64:
		f = n
	default:
		return nil, false
	}
	if f < 0 {
		return nil, false
	}
	return &f, true
}
