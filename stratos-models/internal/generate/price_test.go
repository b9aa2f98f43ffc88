package generate

import (
	"reflect"
	"testing"

	"github.com/stratoscli/stratos/shared/contract/modelsapi"
)

func TestPriceReadsTheCostTable(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		name string
		cost any
		want *modelsapi.Price
	}{
		{"absent", nil, nil},
		{"integers and floats", map[string]any{"input": int64(3), "output": 15.0}, &modelsapi.Price{Input: 3, Output: 15}},
		{"every rate", map[string]any{"input": 1.0, "output": 4.0, "cache_read": 0.1, "cache_write": 1.25, "reasoning": 8.0},
			&modelsapi.Price{Input: 1, Output: 4, CacheRead: f(0.1), CacheWrite: f(1.25), Reasoning: f(8)}},
		{"other keys are not carried", map[string]any{"input": 1.0, "output": 2.0, "input_audio": 9.0, "context_over_200k": map[string]any{"input": 2.0}},
			&modelsapi.Price{Input: 1, Output: 2}},
		{"zero is free, not unknown", map[string]any{"input": 0.0, "output": int64(0)}, &modelsapi.Price{}},
		{"no output rate", map[string]any{"input": 1.0}, nil},
		{"a rate that is not a number", map[string]any{"input": 1.0, "output": "2"}, nil},
		{"a negative rate", map[string]any{"input": 1.0, "output": 2.0, "cache_read": -1.0}, nil},
		{"not a table", "free", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := price(tc.cost); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("price(%v) = %+v, want %+v", tc.cost, got, tc.want)
			}
		})
	}
}
