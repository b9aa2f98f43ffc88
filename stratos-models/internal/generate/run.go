package generate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/stratoscli/stratos/shared/atomicfile"
	"github.com/stratoscli/stratos/stratos-models/internal/catalog"
	"github.com/stratoscli/stratos/stratos-models/internal/links"
	"github.com/stratoscli/stratos/stratos-models/internal/modelsdev"
)

// CatalogFile is the name of the generated file inside --out.
const CatalogFile = "catalog.v1.json"

// Options name the inputs of one generation.
type Options struct {
	SourceDir  string // a Models.dev checkout or exported snapshot
	Repository string // recorded in the catalog; DefaultRepository when empty
	LinksName  string // for error messages
	LinksJSON  []byte // links.v1.json content
}

// Result is one generation's output.
type Result struct {
	Catalog *catalog.Catalog
	JSON    []byte // the encoded catalog, exactly what is written
	Report  *Report
}

// FromDir reads the source tree and its revision and builds the catalog.
func FromDir(ctx context.Context, opts Options) (*Result, error) {
	rev, err := modelsdev.ReadRevision(ctx, opts.SourceDir)
	if err != nil {
		return nil, err
	}
	entries, linksFile, err := links.Parse(opts.LinksName, opts.LinksJSON)
	if err != nil {
		return nil, err
	}
	tree, err := modelsdev.Read(opts.SourceDir)
	if err != nil {
		return nil, err
	}
	repo := opts.Repository
	if repo == "" {
		repo = DefaultRepository
	}
	cat, rep, err := Build(Input{
		Tree: tree,
		Source: catalog.Source{
			Repository: repo,
			Commit:     rev.Commit,
			CommitDate: rev.Date,
			License:    modelsdev.ReadLicense(opts.SourceDir),
		},
		Links:     entries,
		LinksName: opts.LinksName,
		LinksRev:  linksFile.ReviewedAgainst,
	})
	if err != nil {
		return nil, err
	}
	data, err := cat.Encode()
	if err != nil {
		return nil, err
	}
	return &Result{Catalog: cat, JSON: data, Report: rep}, nil
}

// WriteCatalog writes data to dir/catalog.v1.json through a temporary file
// and a rename, so a failed write never leaves half a catalog behind.
func WriteCatalog(dir string, data []byte) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("create output directory: %w", err)
	}
	out := filepath.Join(dir, CatalogFile)
	if err := atomicfile.WriteFile(out, data, atomicfile.Public); err != nil {
		return "", err
	}
	return out, nil
}
