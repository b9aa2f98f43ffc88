// Command gendocs writes the command reference (docs/cli) and the man pages
// (docs/man) from the commands of every Stratos tool, the error-code table
// of docs/errors.md from the tools' contracts (shared/contract), and every
// file generated from Go types: the event vocabulary's JSON Schema and
// TypeScript view (shared/contract/eventapi), the SDK's agent-protocol.ts
// (shared/agentproto), and the built-in harness names of the SDK's
// harness-names.ts and the agent configuration's schema (the harness
// registry). Run it from anywhere in the repository:
// go run ./testscripts/cmd/gendocs
package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/stratoscli/stratos/shared/agentproto/protogen"
	"github.com/stratoscli/stratos/shared/atomicfile"
	"github.com/stratoscli/stratos/shared/contract/eventapi/eventgen"
	"github.com/stratoscli/stratos/stratos-agent/harnesses/harnessgen"
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
	root, err := clidocs.WorkingRepositoryRoot()
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
	for _, generate := range []func(root string) (map[string][]byte, error){eventgen.Files, protogen.Files, harnessgen.Files} {
		if err := writeGenerated(root, generate); err != nil {
			return err
		}
	}
	return nil
}

// writeGenerated writes the files generate makes from Go types (the SDK's
// sources among them need scripts/build-sdk afterwards to reach its dist).
func writeGenerated(root string, generate func(root string) (map[string][]byte, error)) error {
	files, err := generate(root)
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
