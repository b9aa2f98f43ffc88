package host

import (
	"maps"

	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// costPriced marks a usage event whose cost the host computed from the
// catalog's price rather than the harness reporting it; the run record's
// usage roll-up reads it as the provenance "priced".
const costPriced = "priced"

// pricedUsage wraps an adapter's event callback: a usage event without
// costUsd gets one computed from price, marked costProvenance "priced".
// A cost the harness reported is left as it is, and a nil price (the
// catalog states none, or the harness was chosen without the catalog)
// leaves the turn's cost unknown.
func pricedUsage(price *modelsapi.Price, next func(adapter.Event)) func(adapter.Event) {
	if price == nil {
		return next
	}
	return func(e adapter.Event) {
		if e.Type == adapter.EventUsage {
			if _, reported := e.Details["costUsd"]; !reported {
				d := maps.Clone(e.Details)
				d["costUsd"] = price.USD(turnTokens(e.Details))
				d["costProvenance"] = costPriced
				e.Details = d
			}
		}
		next(e)
	}
}

// turnTokens reads a usage event's token counts, named as every adapter
// names them.
func turnTokens(d map[string]any) modelsapi.TurnTokens {
	return modelsapi.TurnTokens{
		Input:      count(d["inputTokens"]),
		Output:     count(d["outputTokens"]),
		CacheRead:  count(d["cacheReadInputTokens"]),
		CacheWrite: count(d["cacheCreationInputTokens"]),
		Reasoning:  count(d["reasoningOutputTokens"]),
	}
}

// count is a token count of whichever integer or float type the adapter
// used (0 when absent).
func count(v any) int64 {
	switch n := v.(type) {
	case int:
		return int64(n)
	case int64:
		return n
	case float64:
		return int64(n)
	}
	return 0
}
