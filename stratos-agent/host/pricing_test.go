package host

import (
	"context"
	"reflect"
	"testing"

	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

func TestPricedUsage(t *testing.T) {
	cacheRead := 0.3
	price := &modelsapi.Price{Input: 3, Output: 15, CacheRead: &cacheRead}
	var got []adapter.Event
	emit := pricedUsage(fixedPrice(price), func(e adapter.Event) { got = append(got, e) })

	unpriced := map[string]any{"inputTokens": 1000, "outputTokens": int64(200), "cacheReadInputTokens": 10000.0}
	emit(adapter.Event{Type: adapter.EventUsage, Details: unpriced})
	emit(adapter.Event{Type: adapter.EventUsage, Details: map[string]any{"inputTokens": 1000, "costUsd": 0.5}})
	emit(adapter.Event{Type: adapter.EventModelCompleted, Details: map[string]any{"inputTokens": 1000}})

	want := []map[string]any{
		{"inputTokens": 1000, "outputTokens": int64(200), "cacheReadInputTokens": 10000.0, "costUsd": 0.009, "costProvenance": "priced"},
		{"inputTokens": 1000, "costUsd": 0.5},
		{"inputTokens": 1000},
	}
	for i, e := range got {
		if !reflect.DeepEqual(e.Details, want[i]) {
			t.Errorf("event %d (%s) details = %v, want %v", i, e.Type, e.Details, want[i])
		}
	}
	if _, changed := unpriced["costUsd"]; changed {
		t.Error("the adapter's details map was changed; the host must price a copy")
	}
}

func TestNoPriceLeavesTheCostUnknown(t *testing.T) {
	var got adapter.Event
	pricedUsage(fixedPrice(nil), func(e adapter.Event) { got = e })(adapter.Event{Type: adapter.EventUsage, Details: map[string]any{"inputTokens": 1}})
	if _, priced := got.Details["costUsd"]; priced {
		t.Fatalf("details = %v: without a catalog price no cost may be made up", got.Details)
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
	var got []map[string]any
	emit := pricedUsage(h.turnPriceOf(candidate{Harness: "test", Model: "a/b"}), func(e adapter.Event) { got = append(got, e.Details) })
	emit(adapter.Event{Type: adapter.EventUsage, Details: map[string]any{"inputTokens": 1000000, "provider": "anthropic", "model": "native-b"}})
	emit(adapter.Event{Type: adapter.EventUsage, Details: map[string]any{"outputTokens": 1000000, "provider": "anthropic"}})
	emit(adapter.Event{Type: adapter.EventUsage, Details: map[string]any{"inputTokens": 5}})
	emit(adapter.Event{Type: adapter.EventUsage, Details: map[string]any{"inputTokens": 5, "provider": "elsewhere"}})
	want := []map[string]any{
		{"inputTokens": 1000000, "provider": "anthropic", "model": "native-b", "costUsd": 1.0, "costProvenance": "priced"},
		{"outputTokens": 1000000, "provider": "anthropic", "costUsd": 2.0, "costProvenance": "priced"},
		{"inputTokens": 5},
		{"inputTokens": 5, "provider": "elsewhere"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("details = %v\nwant %v", got, want)
	}
	// The agent's canonical model on the reported provider, asked once per pair.
	if !reflect.DeepEqual(asked, []string{"a/b@anthropic", "a/b@elsewhere"}) {
		t.Errorf("asked the catalog %v", asked)
	}

	asked = nil
	emit = pricedUsage(h.turnPriceOf(candidate{Harness: "test"}), func(adapter.Event) {})
	emit(adapter.Event{Type: adapter.EventUsage, Details: map[string]any{"inputTokens": 1, "provider": "anthropic", "model": "claude-x"}})
	if !reflect.DeepEqual(asked, []string{"claude-x@anthropic"}) {
		t.Errorf("an agent without a model: asked %v; want the model the adapter reports", asked)
	}
}
