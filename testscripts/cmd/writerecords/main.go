// Command writerecords marks every valid workflow of a discovery root as
// built, as a successful build would: it writes each build record from the
// key discovery computes now, a placeholder compiled entry, and the root's
// SDK package.json at the current version. Benchmarks use it to measure
// fresh roots without compiling thousands of workflows.
//
//	go run ./testscripts/cmd/writerecords <root-dir>
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/shared/roots"
	"github.com/stratoscli/stratos/shared/version"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: writerecords <root-dir>")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "writerecords:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	cat, err := discovery.Load([]roots.Root{{Kind: roots.Project, Dir: abs}})
	if err != nil {
		return err
	}
	root := cat.Roots[0]
	if err := root.Freshen(root.Sorted()); err != nil {
		return err
	}
	for _, w := range root.Sorted() {
		entry := freshness.CompiledEntry(w.Dir, w.Manifest.Entrypoint)
		if err := os.MkdirAll(filepath.Dir(filepath.Join(w.Dir, entry)), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(w.Dir, entry), []byte("export default {};\n"), 0o644); err != nil {
			return err
		}
		// The stat cache a build writes beside the record.
		_, stats, err := freshness.NewScanner(abs).SourcesForRecord(w.Dir)
		if err != nil {
			return err
		}
		if err := freshness.WriteStatCacheInto(filepath.Join(w.Dir, "dist"), stats); err != nil {
			return err
		}
		rec := &freshness.Record{FormatVersion: freshness.RecordFormat, Name: w.Manifest.Name, Key: w.Key, Parts: w.Parts, Entry: entry}
		if err := freshness.WriteRecord(w.Dir, rec); err != nil {
			return err
		}
		// A build also installs the workflow's npm dependencies; npm's record of
		// that install is what freshness looks for.
		if err := os.MkdirAll(filepath.Join(w.Dir, "node_modules"), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(w.Dir, "node_modules", ".package-lock.json"), []byte("{\"lockfileVersion\": 3, \"packages\": {}}\n"), 0o644); err != nil {
			return err
		}
	}
	sdkDir := filepath.Join(abs, "node_modules", "@stratoscli", "stratos")
	if err := os.MkdirAll(sdkDir, 0o755); err != nil {
		return err
	}
	pkg := fmt.Sprintf("{\"name\": \"@stratoscli/stratos\", \"version\": %q}\n", version.Version)
	if err := os.WriteFile(filepath.Join(sdkDir, "package.json"), []byte(pkg), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "writerecords: %d workflows marked built in %s\n", len(root.Workflows), abs)
	return nil
}
