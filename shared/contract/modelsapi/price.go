package modelsapi

import "math"

// Price is what a provider charges for a model, in US dollars per million
// tokens, as the catalog's Models.dev snapshot states it. A cache rate
// that is absent was not stated upstream; such tokens are billed at the
// input rate, so that a priced figure never undercounts for a budget.
// Reasoning absent means reasoning tokens are billed as output.
type Price struct {
	Input      float64  `json:"input"`
	Output     float64  `json:"output"`
	CacheRead  *float64 `json:"cacheRead,omitempty"`
	CacheWrite *float64 `json:"cacheWrite,omitempty"`
	Reasoning  *float64 `json:"reasoning,omitempty"`
}

// TurnTokens are one turn's token counts as the adapters' usage events
// report them: Input excludes the cache reads and writes, Output includes
// Reasoning.
type TurnTokens struct {
	Input      int64
	Output     int64
	CacheRead  int64
	CacheWrite int64
	Reasoning  int64
}

// perMillion converts a count at a per-million-token rate into dollars.
func perMillion(tokens int64, rate float64) float64 { return float64(tokens) * rate / 1e6 }

// USD prices one turn, rounded to 1e-10 dollars so that sums of decimal
// prices read as decimals.
func (p Price) USD(t TurnTokens) float64 {
	reasoning := min(max(t.Reasoning, 0), t.Output)
	outputRate, reasoningRate := p.Output, p.Output
	if p.Reasoning != nil {
		reasoningRate = *p.Reasoning
	}
	usd := perMillion(t.Input, p.Input) +
		perMillion(t.Output-reasoning, outputRate) +
		perMillion(reasoning, reasoningRate) +
		perMillion(t.CacheRead, rateOr(p.CacheRead, p.Input)) +
		perMillion(t.CacheWrite, rateOr(p.CacheWrite, p.Input))
	return math.Round(usd*1e10) / 1e10
}

func rateOr(rate *float64, fallback float64) float64 {
	if rate == nil {
		return fallback
	}
	return *rate
}
