package lookup

import "testing"

// BenchmarkEmbeddedLoadAndResolve measures what every `stratos models`
// invocation pays: decoding the embedded catalog and provider mapping, then
// one lookup. The budget is 5 ms.
func BenchmarkEmbeddedLoadAndResolve(b *testing.B) {
	for b.Loop() {
		d, err := Embedded()
		if err != nil {
			b.Fatal(err)
		}
		res, err := d.Resolve("anthropic/claude-opus-4-7", "amazon-bedrock")
		if err != nil || res.NativeID != "global.anthropic.claude-opus-4-7" {
			b.Fatalf("resolve: %+v %v", res, err)
		}
	}
}
