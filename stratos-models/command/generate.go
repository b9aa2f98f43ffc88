package command

import (
	"context"
	"errors"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/boundedread"
	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/shared/logging"
	"github.com/stratoscli/stratos/stratos-models/data"
	"github.com/stratoscli/stratos/stratos-models/internal/catalog"
	"github.com/stratoscli/stratos/stratos-models/internal/catalogdiff"
	"github.com/stratoscli/stratos/stratos-models/internal/generate"
	"github.com/stratoscli/stratos/stratos-models/internal/providermap"
)

func generateCommand() *cli.Command {
	return &cli.Command{
		Name:      "generate",
		Usage:     "generate catalog.v1.json from a pinned Models.dev snapshot (release time)",
		UsageText: "stratos-models generate --source <dir|snapshot.tar.gz> --out <dir> [--previous <catalog.json>] [--links <links.json>] [--json]",
		Description: cliapp.Lines(
			"Reads models/<creator>/<model>.toml and providers/<p>/models/<native-id>.toml under --source",
			"(a Models.dev checkout, a snapshot with a REVISION file, or a .tar.gz of one such as",
			"data/modelsdev/snapshot.tar.gz, read in memory) and writes <out>/catalog.v1.json.",
			"A provider file maps to a canonical model only through an explicit base_model naming an",
			"existing canonical file, or through an entry of the reviewed links file.",
			"With --previous, prints the diff against that catalog for review.",
		),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "source", Usage: "Models.dev source directory or .tar.gz archive", Required: true},
			&cli.StringFlag{Name: "out", Usage: "directory to write catalog.v1.json into", Required: true},
			&cli.StringFlag{Name: "previous", Usage: "previous catalog.v1.json to diff against"},
			&cli.StringFlag{Name: "links", Usage: "links file (default: the links.v1.json built into this binary)"},
			&cli.StringFlag{Name: "repository", Usage: "source repository URL recorded in the catalog", Value: generate.DefaultRepository},
			cliapp.JSONFlag(),
		},
		Action: runGenerate,
	}
}

// generateOutput is the JSON document of `generate --json`.
type generateOutput struct {
	Catalog string `json:"catalog"` // path written
	*generate.Report
	Diff *catalogdiff.Diff `json:"diff,omitempty"`
}

func runGenerate(ctx context.Context, cmd *cli.Command) error {
	if err := cliapp.ExactArgs(cmd, 0, 0, "--source <dir|snapshot.tar.gz> --out <dir> [--previous <catalog.json>]"); err != nil {
		return err
	}
	log := logging.New("stratos-models", cmd.Root().ErrWriter)
	linksName, linksJSON, err := readLinks(ctx, cmd.String("links"))
	if err != nil {
		return err
	}
	var prev *catalog.Catalog
	if p := cmd.String("previous"); p != "" {
		if prev, err = readCatalog(ctx, p); err != nil {
			return err
		}
	}
	res, err := generate.FromSource(ctx, generate.Options{
		Source: cmd.String("source"), Repository: cmd.String("repository"),
		LinksName: linksName, LinksJSON: linksJSON,
	})
	var sourceErr *generate.SourceError
	if errors.As(err, &sourceErr) {
		return clierr.Usage(modelsapi.CodeSourceInvalid, "%v", err).Wrap(err)
	}
	if err != nil {
		return clierr.New(modelsapi.CodeGenerateFailed, "generate from %s: %v", cmd.String("source"), err).Wrap(err)
	}
	path, err := generate.WriteCatalog(cmd.String("out"), res.JSON)
	if err != nil {
		return clierr.New(modelsapi.CodeWriteFailed, "%v", err).Wrap(err)
	}
	for _, w := range res.Report.Warnings {
		log.Warn(w)
	}
	if n := len(res.Report.DanglingSymlinks); n > 0 {
		log.Warn(fmt.Sprintf("skipped %d dangling symlinks (listed with --json, or one by one with STRATOS_LOG_LEVEL=debug)", n))
	}
	for _, d := range res.Report.DanglingSymlinks {
		log.Debug("skipped dangling symlink", "path", d.Path, "target", d.Target, "reason", d.Reason)
	}
	for _, ib := range res.Report.InvalidBaseModels {
		log.Warn("skipped invalid base_model", "path", ib.Path, "baseModel", ib.BaseModel, "reason", ib.Reason)
	}
	out := generateOutput{Catalog: path, Report: res.Report}
	if prev != nil {
		order, err := orderWithEmbeddedMapping()
		if err != nil {
			return err
		}
		out.Diff = catalogdiff.Compute(prev, res.Catalog, order)
	}
	if cmd.Bool("json") {
		return printJSON(cmd, out)
	}
	printGenerateText(cmd, out)
	return nil
}

// orderWithEmbeddedMapping ranks native IDs the way lookups will, so the
// diff's "first ID" is the one users get.
func orderWithEmbeddedMapping() (catalogdiff.Order, error) {
	m, err := providermap.Parse(data.ProviderMapping())
	if err != nil {
		return nil, clierr.New(modelsapi.CodeMappingInvalid, "embedded %s: %v", data.ProviderMappingName, err).Wrap(err)
	}
	return func(provider string, ids []catalog.NativeID) []catalog.NativeID {
		return providermap.Order(m, provider, ids, func(n catalog.NativeID) string { return n.ID })
	}, nil
}

// Limits of the files --links and --previous name, so that a wrong path
// (a device, a FIFO) cannot take the machine's memory (docs/files.md):
// the links file is about 14 KB today and the catalog a few hundred KB, so
// each has room to grow more than a hundredfold.
const (
	maxLinksBytes   = 4 << 20
	maxCatalogBytes = 64 << 20
)

func readLinks(ctx context.Context, path string) (string, []byte, error) {
	if path == "" {
		return data.LinksName + " (built in)", data.Links(), nil
	}
	b, err := boundedread.File(ctx, path, maxLinksBytes)
	if err != nil {
		return "", nil, clierr.Usage(modelsapi.CodeLinksUnreadable, "read links file: %v", err).Wrap(err)
	}
	return path, b, nil
}

func readCatalog(ctx context.Context, path string) (*catalog.Catalog, error) {
	b, err := boundedread.File(ctx, path, maxCatalogBytes)
	if err != nil {
		return nil, clierr.Usage(modelsapi.CodePreviousUnreadable, "read previous catalog: %v", err).Wrap(err)
	}
	c, err := catalog.Load(b)
	if err != nil {
		return nil, clierr.Usage(modelsapi.CodePreviousInvalid, "previous catalog %s: %v", path, err).Wrap(err)
	}
	return c, nil
}

func printGenerateText(cmd *cli.Command, out generateOutput) {
	w := cmd.Root().Writer
	c := out.Counts
	fmt.Fprintf(w, "wrote %s (Models.dev %s)\n", out.Catalog, out.Source.Commit)
	fmt.Fprintf(w, "  %d canonical models, %d providers, %d provider files\n", c.CanonicalModels, c.Providers, c.ProviderFiles)
	fmt.Fprintf(w, "  %d Models.dev links, %d Stratos links, %d unlinked files\n", c.ModelsDevLinks, c.StratosLinks, c.Unlinked)
	fmt.Fprintf(w, "  skipped: %d dangling symlinks, %d invalid base_model values, %d files without .toml\n",
		c.DanglingSymlinks, c.InvalidBaseModels, c.IgnoredFiles)
	fmt.Fprintf(w, "  %d canonical models have no provider mapping\n", c.UnmappedModels)
	if out.Diff != nil {
		out.Diff.WriteText(w)
	}
}
