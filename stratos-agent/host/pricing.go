package host

import (
	"context"
	"io"
	"maps"

	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/shared/sibling"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/catalog"
)

// priceFunc returns the catalog's price of model on provider, nil when the
// catalog states none or cannot say.
type priceFunc func(ctx context.Context, model, provider string) *modelsapi.Price

// catalogPrice asks `stratos-models resolve --json`. A model the catalog
// does not know (a harness's own model name) or cannot map is simply not
// priced: its turns' cost stays unknown, and the agent runs as before.
func catalogPrice() priceFunc {
	return func(ctx context.Context, model, provider string) *modelsapi.Price {
		var res struct {
			Cost *modelsapi.Price `json:"cost"`
		}
		args := []string{"resolve", model, "--provider", provider, "--json"}
		if sibling.RunJSON(ctx, catalog.Tool, args, nil, &res, io.Discard) != nil {
			return nil
		}
		return res.Cost
	}
}

// priced gives an explicit harness's candidates the catalog price of their
// model on the provider the agent names. Without a named provider the
// backend is the harness's own choice, unknown here, so nothing is priced.
func (h *Host) priced(ctx context.Context, cands []candidate, provider string) []candidate {
	if provider == "" {
		return cands
	}
	for i := range cands {
		if cands[i].Model != "" {
			cands[i].Price = h.prices(ctx, cands[i].Model, provider)
		}
	}
	return cands
}

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
