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
	Source     string // a Models.dev checkout or exported snapshot, or a .tar.gz of one
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

// SourceError is a --source that cannot be opened (missing, neither a
// directory nor an archive, a corrupt archive): invalid input rather than a
// failed generation.
type SourceError struct{ Err error }

func (e *SourceError) Error() string { return e.Err.Error() }
func (e *SourceError) Unwrap() error { return e.Err }

// FromSource reads the source tree and its revision and builds the catalog.
func FromSource(ctx context.Context, opts Options) (*Result, error) {
	src, err := modelsdev.Open(opts.Source)
	if err != nil {
		return nil, &SourceError{Err: err}
	}
	rev, err := modelsdev.ReadRevision(ctx, src)
	if err != nil {
		return nil, err
	}
	entries, linksFile, err := links.Parse(opts.LinksName, opts.LinksJSON)
	if err != nil {
		return nil, err
	}
	tree, err := modelsdev.Read(src)
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
			License:    modelsdev.ReadLicense(src),
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
