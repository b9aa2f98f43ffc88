// Command gendocs writes the command reference (docs/cli) and the man pages
// (docs/man) from the commands of every Stratos tool, the error-code table
// of docs/errors.md from the tools' contracts (shared/contract), and the
// event vocabulary's JSON Schema and TypeScript view from its Go types
// (shared/contract/eventapi). Run it from anywhere in the repository:
// go run ./testscripts/cmd/gendocs
package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/stratoscli/stratos/shared/atomicfile"
	"github.com/stratoscli/stratos/shared/contract/eventapi/eventgen"
	"github.com/stratoscli/stratos/testscripts/internal/clidocs"
	"github.com/stratoscli/stratos/testscripts/internal/errdocs"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
}

func run() error {
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	root, err := clidocs.RepositoryRoot(cwd)
	if err != nil {
		return err
	}
	files, err := clidocs.Generate()
	if err != nil {
		return err
	}
	if err := clidocs.Write(root, files); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "gendocs: wrote %d files into %s and %s\n", len(files),
		filepath.Join(root, clidocs.CLIDir), filepath.Join(root, clidocs.ManDir))
	if err := writeErrorTable(root); err != nil {
		return err
	}
	return writeEventVocabulary(root)
}

// writeEventVocabulary regenerates the event vocabulary's documents (the
// SDK's copy needs scripts/build-sdk afterwards to reach its dist).
func writeEventVocabulary(root string) error {
	files, err := eventgen.Files(root)
	if err != nil {
		return err
	}
	for _, rel := range slices.Sorted(maps.Keys(files)) {
		if err := atomicfile.WriteFile(filepath.Join(root, rel), files[rel], 0o644); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "gendocs: wrote %s\n", rel)
	}
	return nil
}

// writeErrorTable regenerates the error-code table of docs/errors.md.
func writeErrorTable(root string) error {
	path := filepath.Join(root, errdocs.Path)
	page, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	out, err := errdocs.Splice(page, errdocs.Table())
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, out, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "gendocs: wrote the error-code table into %s\n", path)
	return nil
}
