package sdk_test

import (
	"context"
	"io"
	"testing"

	"github.com/stratoscli/stratos/shared/sdk"
)

// BenchmarkLoadDefinition measures one node start + import of a workflow with
// zod and the SDK + schema conversion (the per-workflow cost of schema/describe).
func BenchmarkLoadDefinition(b *testing.B) {
	r := newLoadRoot(b)
	entry := r.compile(b, "summarize", summarizeTS)
	for b.Loop() {
		if _, err := sdk.LoadDefinition(context.Background(), r.tc, r.root, entry, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEnsureInstalledCurrent measures the check every build, describe,
// schema and run makes when the root's SDK is already current.
func BenchmarkEnsureInstalledCurrent(b *testing.B) {
	r := newLoadRoot(b)
	for b.Loop() {
		if reinstalled, err := sdk.EnsureInstalled(context.Background(), r.tc, r.root, nil); err != nil || reinstalled {
			b.Fatal(reinstalled, err)
		}
	}
}
