package host

import (
	"context"
	"sync"
	"time"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/shared/toolcall"
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
		if toolcall.Run(ctx, toolcall.Call{Tool: catalog.Tool, Args: args}, &res) != nil {
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

// turnPrice is the catalog price of the turn a usage event reports (as
// the adapter sent it), nil when unknown.
type turnPrice func(u *eventapi.Usage) *modelsapi.Price

// fixedPrice prices every turn at p, the price of the candidate's native
// ID; nil when p is.
func fixedPrice(p *modelsapi.Price) turnPrice {
	if p == nil {
		return nil
	}
	return func(*eventapi.Usage) *modelsapi.Price { return p }
}

// priceLookupBound bounds one catalog lookup made while a turn's usage is
// reported, so a stuck lookup cannot hold the agent's events back.
const priceLookupBound = 10 * time.Second

// reportedPrice prices a turn of an agent whose backend the harness chose:
// at the catalog price of the provider the adapter reports it used for
// model, the agent's canonical model, or, when the agent names none, the
// model the adapter reports. Each pair is looked up once; a turn without a
// reported provider stays unpriced.
func (h *Host) reportedPrice(model string) turnPrice {
	var mu sync.Mutex
	known := map[[2]string]*modelsapi.Price{}
	return func(u *eventapi.Usage) *modelsapi.Price {
		m := model
		if m == "" {
			m = u.Model
		}
		if u.Provider == "" || m == "" {
			return nil
		}
		key := [2]string{m, u.Provider}
		mu.Lock()
		defer mu.Unlock()
		if p, ok := known[key]; ok {
			return p
		}
		ctx, cancel := context.WithTimeout(context.Background(), priceLookupBound)
		defer cancel()
		p := h.prices(ctx, m, u.Provider)
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

// pricedUsage wraps an adapter's event callback so that every usage
// event's cost says where it comes from: a cost the harness reported is
// marked costProvenance "reported"; a usage event without one gets one
// computed from its turn's price, marked "priced". A turn without a price
// (the catalog states none, or neither the agent nor the adapter names the
// provider) keeps its cost unknown.
func pricedUsage(price turnPrice, next func(adapter.Event)) func(adapter.Event) {
	return func(e adapter.Event) {
		if u, ok := e.Details.(*eventapi.Usage); ok {
			e.Details = costed(u, price)
		}
		next(e)
	}
}

// costed is u with its cost's provenance, priced when the harness reported
// no cost and price knows the turn's; u itself is left as it is.
func costed(u *eventapi.Usage, price turnPrice) *eventapi.Usage {
	c := *u
	switch {
	case c.CostUSD != nil:
		if c.CostProvenance == "" {
			c.CostProvenance = eventapi.CostReported
		}
	case price != nil:
		if p := price(u); p != nil {
			usd := p.USD(turnTokens(u.Tokens))
			c.CostUSD, c.CostProvenance = &usd, eventapi.CostPriced
		}
	}
	return &c
}

// turnTokens are a turn's token counts as prices apply to them.
func turnTokens(t eventapi.Tokens) modelsapi.TurnTokens {
	return modelsapi.TurnTokens{Input: t.InputTokens, Output: t.OutputTokens, CacheRead: t.CacheReadInputTokens,
		CacheWrite: t.CacheCreationInputTokens, Reasoning: t.ReasoningOutputTokens}
}
