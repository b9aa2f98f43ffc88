package modelsapi

import "testing"

func ptr(f float64) *float64 { return &f }

func TestPriceUSD(t *testing.T) {
	sonnet := Price{Input: 3, Output: 15, CacheRead: ptr(0.3), CacheWrite: ptr(3.75)}
	for _, tc := range []struct {
		name  string
		price Price
		turn  TurnTokens
		want  float64
	}{
		{"nothing", sonnet, TurnTokens{}, 0},
		{"input and output", sonnet, TurnTokens{Input: 1000, Output: 200}, 0.006},
		{"every kind", sonnet, TurnTokens{Input: 1_000_000, Output: 1_000_000, CacheRead: 1_000_000, CacheWrite: 1_000_000}, 3 + 15 + 0.3 + 3.75},
		{"reasoning billed as output", sonnet, TurnTokens{Output: 1000, Reasoning: 400}, 0.015},
		{"reasoning at its own rate", Price{Input: 1, Output: 10, Reasoning: ptr(20)}, TurnTokens{Output: 1000, Reasoning: 400}, 600*10/1e6 + 400*20/1e6},
		{"reasoning above output is capped", Price{Output: 10, Reasoning: ptr(20)}, TurnTokens{Output: 100, Reasoning: 500}, 100 * 20 / 1e6},
		{"cache rates absent: input rate", Price{Input: 2, Output: 8}, TurnTokens{CacheRead: 500_000, CacheWrite: 250_000}, 1.5},
		{"decimal sums stay decimal", sonnet, TurnTokens{Input: 10, Output: 10}, 0.00018},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.price.USD(tc.turn); got != tc.want {
				t.Fatalf("USD(%+v) = %v, want %v", tc.turn, got, tc.want)
			}
		})
	}
}
