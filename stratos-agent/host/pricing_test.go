package host

import (
	"context"
	"reflect"
	"testing"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

func usd(v float64) *float64 { return &v }

func usageEvent(u eventapi.Usage) adapter.Event { return adapter.Event{Details: &u} }

func TestPricedUsage(t *testing.T) {
	cacheRead := 0.3
	price := &modelsapi.Price{Input: 3, Output: 15, CacheRead: &cacheRead}
	var got []adapter.Event
	emit := pricedUsage(fixedPrice(price), func(e adapter.Event) { got = append(got, e) })

	unpriced := &eventapi.Usage{Tokens: eventapi.Tokens{InputTokens: 1000, OutputTokens: 200, CacheReadInputTokens: 10000}}
	emit(adapter.Event{Details: unpriced})
	emit(usageEvent(eventapi.Usage{Tokens: eventapi.Tokens{InputTokens: 1000}, CostUSD: usd(0.5)}))
	emit(adapter.Event{Details: &eventapi.ModelCompleted{Usage: &eventapi.Tokens{InputTokens: 1000}}})

	want := []eventapi.Details{
		&eventapi.Usage{Tokens: eventapi.Tokens{InputTokens: 1000, OutputTokens: 200, CacheReadInputTokens: 10000}, CostUSD: usd(0.009), CostProvenance: eventapi.CostPriced},
		&eventapi.Usage{Tokens: eventapi.Tokens{InputTokens: 1000}, CostUSD: usd(0.5), CostProvenance: eventapi.CostReported},
		&eventapi.ModelCompleted{Usage: &eventapi.Tokens{InputTokens: 1000}},
	}
	for i, e := range got {
		if !reflect.DeepEqual(e.Details, want[i]) {
			t.Errorf("event %d (%s) details = %s, want %s", i, e.Type(), adapter.JSONOf(e.Details), adapter.JSONOf(want[i]))
		}
	}
	if unpriced.CostUSD != nil {
		t.Error("the adapter's details were changed; the host must price a copy")
	}
}

// A cost the harness reported says so even when the host has no price.
func TestNoPriceLeavesTheCostUnknown(t *testing.T) {
	var got adapter.Event
	emit := pricedUsage(fixedPrice(nil), func(e adapter.Event) { got = e })
	emit(usageEvent(eventapi.Usage{Tokens: eventapi.Tokens{InputTokens: 1}}))
	if u := got.Details.(*eventapi.Usage); u.CostUSD != nil || u.CostProvenance != "" {
		t.Fatalf("details = %s: without a catalog price no cost may be made up", adapter.JSONOf(u))
	}
	emit(usageEvent(eventapi.Usage{CostUSD: usd(0.25)}))
	if u := got.Details.(*eventapi.Usage); *u.CostUSD != 0.25 || u.CostProvenance != eventapi.CostReported {
		t.Fatalf("details = %s: want the reported cost, marked reported", adapter.JSONOf(u))
	}
}

func TestExplicitCandidatesArePricedOnlyOnANamedProvider(t *testing.T) {
	price := &modelsapi.Price{Input: 1, Output: 2}
	var asked []string
	h := &Host{prices: func(_ context.Context, model, provider string) *modelsapi.Price {
		asked = append(asked, model+"@"+provider)
		return price
	}}
	got := h.priced(context.Background(), explicitCandidates("test", []string{"a/b", "c/d"}), "anthropic")
	if got[0].Price != price || got[1].Price != price || !reflect.DeepEqual(asked, []string{"a/b@anthropic", "c/d@anthropic"}) {
		t.Fatalf("candidates %+v after asking %v", got, asked)
	}
	asked = nil
	for _, c := range h.priced(context.Background(), explicitCandidates("test", []string{"a/b"}), "") {
		if c.Price != nil || asked != nil {
			t.Fatalf("without a provider the backend is the harness's choice: %+v priced after asking %v", c, asked)
		}
	}
}

func TestTurnsArePricedOnTheProviderTheAdapterReports(t *testing.T) {
	price := &modelsapi.Price{Input: 1, Output: 2}
	var asked []string
	h := &Host{prices: func(_ context.Context, model, provider string) *modelsapi.Price {
		asked = append(asked, model+"@"+provider)
		if provider == "anthropic" {
			return price
		}
		return nil
	}}
	var got []eventapi.Details
	emit := pricedUsage(h.turnPriceOf(candidate{Harness: "test", Model: "a/b"}), func(e adapter.Event) { got = append(got, e.Details) })
	emit(usageEvent(eventapi.Usage{Tokens: eventapi.Tokens{InputTokens: 1000000}, Provider: "anthropic", Model: "native-b"}))
	emit(usageEvent(eventapi.Usage{Tokens: eventapi.Tokens{OutputTokens: 1000000}, Provider: "anthropic"}))
	emit(usageEvent(eventapi.Usage{Tokens: eventapi.Tokens{InputTokens: 5}}))
	emit(usageEvent(eventapi.Usage{Tokens: eventapi.Tokens{InputTokens: 5}, Provider: "elsewhere"}))
	want := []eventapi.Details{
		&eventapi.Usage{Tokens: eventapi.Tokens{InputTokens: 1000000}, Provider: "anthropic", Model: "native-b", CostUSD: usd(1), CostProvenance: eventapi.CostPriced},
		&eventapi.Usage{Tokens: eventapi.Tokens{OutputTokens: 1000000}, Provider: "anthropic", CostUSD: usd(2), CostProvenance: eventapi.CostPriced},
		&eventapi.Usage{Tokens: eventapi.Tokens{InputTokens: 5}},
		&eventapi.Usage{Tokens: eventapi.Tokens{InputTokens: 5}, Provider: "elsewhere"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("details = %s\nwant %s", adapter.JSONOf(got), adapter.JSONOf(want))
	}
	// The agent's canonical model on the reported provider, asked once per pair.
	if !reflect.DeepEqual(asked, []string{"a/b@anthropic", "a/b@elsewhere"}) {
		t.Errorf("asked the catalog %v", asked)
	}

	asked = nil
	emit = pricedUsage(h.turnPriceOf(candidate{Harness: "test"}), func(adapter.Event) {})
	emit(usageEvent(eventapi.Usage{Tokens: eventapi.Tokens{InputTokens: 1}, Provider: "anthropic", Model: "claude-x"}))
	if !reflect.DeepEqual(asked, []string{"claude-x@anthropic"}) {
		t.Errorf("an agent without a model: asked %v; want the model the adapter reports", asked)
	}
}
