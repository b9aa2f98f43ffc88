package schemacheck

import (
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkCheck checks every zod fixture once per iteration.
func BenchmarkCheck(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join("testdata", "zod", "*.json"))
	var defs []Definition
	for _, f := range files {
		defs = append(defs, loadFixture(b, strings.TrimSuffix(filepath.Base(f), ".json")))
	}
	b.ResetTimer()
	for b.Loop() {
		for _, d := range defs {
			Check("bench", d)
		}
	}
	b.ReportMetric(float64(len(defs)), "definitions/op")
}
