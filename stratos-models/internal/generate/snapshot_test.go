package generate

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stratoscli/stratos/stratos-models/data"
	"github.com/stratoscli/stratos/stratos-models/internal/catalog"
	"github.com/stratoscli/stratos/stratos-models/internal/testsource"
)

func generateShipped(t testing.TB) *Result {
	t.Helper()
	res, err := FromSource(context.Background(), Options{
		Source: testsource.Snapshot(t), LinksName: data.LinksName, LinksJSON: data.Links(),
	})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The committed catalog must be exactly what the generator makes from the
// vendored snapshot archive and the committed links.
func TestCommittedCatalogIsUpToDate(t *testing.T) {
	res := generateShipped(t)
	if !bytes.Equal(res.JSON, data.Catalog()) {
		t.Fatalf("%s is not what the generator produces from data/modelsdev/snapshot.tar.gz and %s; regenerate it:\n"+
			"  cd stratos-models && go run ./cmd/stratos-models generate --source data/modelsdev/snapshot.tar.gz --out data/models --previous data/models/catalog.v1.json",
			data.CatalogName, data.LinksName)
	}
}

// Figures measured on the pinned revision (docs/design/model-catalog.md).
func TestFullSnapshotCounts(t *testing.T) {
	res := generateShipped(t)
	c := res.Report.Counts
	if c.CanonicalModels != 231 || c.Providers != 147 || c.ProviderFiles != 5276 || c.ModelsDevLinks != 1347 ||
		c.DanglingSymlinks != 31 || c.InvalidBaseModels != 0 {
		t.Errorf("counts = %+v; want 231 models, 147 providers, 5276 readable files, 1347 links, 31 dangling, 0 invalid", c)
	}
	if len(res.Report.Warnings) != 0 || len(res.Report.RedundantLinks) != 0 {
		t.Errorf("the shipped links should apply cleanly: warnings %v", res.Report.Warnings)
	}
	// Claude Code's default backend works for every current Claude model.
	for _, id := range []string{"anthropic/claude-opus-4-6", "anthropic/claude-opus-4-7", "anthropic/claude-sonnet-4-5", "anthropic/claude-sonnet-4-6", "anthropic/claude-haiku-4-5"} {
		ids := res.Catalog.Models[id].Providers["anthropic"]
		if len(ids) != 1 || ids[0].Origin != catalog.OriginStratos {
			t.Errorf("%s on anthropic = %v, want one Stratos link", id, ids)
		}
	}
	// Upstream's own first-party link stays an upstream link.
	if ids := res.Catalog.Models["openai/gpt-5"].Providers["openai"]; len(ids) != 1 || ids[0].Origin != catalog.OriginModelsDev {
		t.Errorf("openai/gpt-5 on openai = %v", ids)
	}
}

// BenchmarkGenerateFullSnapshot measures `generate` over the whole pinned
// snapshot archive (unpacking ~5,700 files into memory, decoding, building,
// encoding); the budget is 2 s.
func BenchmarkGenerateFullSnapshot(b *testing.B) {
	archive := testsource.Snapshot(b)
	for b.Loop() {
		if _, err := FromSource(context.Background(), Options{Source: archive, LinksName: data.LinksName, LinksJSON: data.Links()}); err != nil {
			b.Fatal(err)
		}
	}
}

// The REVISION and LICENSE committed beside the archive are the archive's
// own, so the pinned commit can be read without unpacking anything.
func TestSnapshotSideFilesMatchArchive(t *testing.T) {
	archive := testsource.Snapshot(t)
	inside := testsource.Unpack(t, archive)
	for _, name := range []string{"REVISION", "LICENSE"} {
		want, err := os.ReadFile(filepath.Join(inside, name))
		if err != nil {
			t.Fatalf("the snapshot archive has no %s: %v", name, err)
		}
		got, err := os.ReadFile(filepath.Join(filepath.Dir(archive), name))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("data/modelsdev/%s differs from the archive's (%v); rerun scripts/refresh-models-snapshot", name, err)
		}
	}
}
