package wrappergen

import "testing"

// BenchmarkGenerate renders every golden fixture once per iteration, to put
// the generator's cost beside tsc's in a build.
func BenchmarkGenerate(b *testing.B) {
	cases := goldenCases(b)
	b.ResetTimer()
	for b.Loop() {
		for _, w := range cases {
			if _, err := Generate(w); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(cases)), "wrappers/op")
}
