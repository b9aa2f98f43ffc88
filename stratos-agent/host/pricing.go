package host

import (
	"context"
	"io"
	"maps"
	"sync"
	"time"

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
// backend is the harness's own choice, unknown here: its turns are priced
// from what the adapter reports using (reportedPrice).
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

// turnPrice is the catalog price of the turn a usage event reports (its
// details as the adapter sent them), nil when unknown.
type turnPrice func(details map[string]any) *modelsapi.Price

// fixedPrice prices every turn at p, the price of the candidate's native
// ID; nil when p is.
func fixedPrice(p *modelsapi.Price) turnPrice {
	if p == nil {
		return nil
	}
	return func(map[string]any) *modelsapi.Price { return p }
}

// priceLookupBound bounds one catalog lookup made while a turn's usage is
// reported, so a stuck lookup cannot hold the agent's events back.
const priceLookupBound = 10 * time.Second

// reportedPrice prices a turn of an agent whose backend the harness chose:
// at the catalog price of the provider the adapter reports it used
// (details "provider") for model, the agent's canonical model, or, when the
// agent names none, the model the adapter reports ("model"). Each pair is
// looked up once; a turn without a reported provider stays unpriced.
func (h *Host) reportedPrice(model string) turnPrice {
	var mu sync.Mutex
	known := map[[2]string]*modelsapi.Price{}
	return func(d map[string]any) *modelsapi.Price {
		provider, _ := d["provider"].(string)
		m := model
		if m == "" {
			m, _ = d["model"].(string)
		}
		if provider == "" || m == "" {
			return nil
		}
		key := [2]string{m, provider}
		mu.Lock()
		defer mu.Unlock()
		if p, ok := known[key]; ok {
			return p
		}
		ctx, cancel := context.WithTimeout(context.Background(), priceLookupBound)
		defer cancel()
		p := h.prices(ctx, m, provider)
		known[key] = p
		return p
	}
}

// turnPriceOf is how c's turns are priced: at its catalog price when the
// host knew the provider up front, else at what the adapter reports using.
func (h *Host) turnPriceOf(c candidate) turnPrice {
	if c.Price != nil || c.Provider != "" || h.prices == nil {
		return fixedPrice(c.Price)
	}
	return h.reportedPrice(c.Model)
}

// pricedUsage wraps an adapter's event callback: a usage event without
// costUsd gets one computed from its turn's price, marked costProvenance
// "priced". A cost the harness reported is left as it is, and a turn
// without a price (the catalog states none, or neither the agent nor the
// adapter names the provider) keeps its cost unknown.
func pricedUsage(price turnPrice, next func(adapter.Event)) func(adapter.Event) {
	if price == nil {
		return next
	}
	return func(e adapter.Event) {
		if e.Type == adapter.EventUsage {
			if _, reported := e.Details["costUsd"]; !reported {
				if p := price(e.Details); p != nil {
					d := maps.Clone(e.Details)
					d["costUsd"] = p.USD(turnTokens(e.Details))
					d["costProvenance"] = costPriced
					e.Details = d
				}
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
