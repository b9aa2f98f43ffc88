// Command writerecords marks every valid workflow of a discovery root as
// built, as a successful build would: it writes each build record from the
// key discovery computes now, a placeholder compiled entry, and the root's
// SDK (this Stratos's files, placed without npm). Benchmarks use it to measure
// fresh roots without compiling thousands of workflows.
//
//	go run ./testscripts/cmd/writerecords <root-dir>
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/filestat"
	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/shared/roots"
	"github.com/stratoscli/stratos/shared/sdk"
	"github.com/stratoscli/stratos/shared/sdk/sdktest"
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
	// The root's SDK, as the build installs it, placed first: its stat
	// cache is written last, once its files have settled.
	if err := sdktest.Place(abs); err != nil {
		return err
	}
	placed := time.Now()
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
	// Files changed within filestat.RacyWindow of a check are not cached
	// (racily clean): wait until the SDK's have settled, as they have by
	// the time a later build checks them.
	time.Sleep(time.Until(placed.Add(filestat.RacyWindow + 100*time.Millisecond)))
	if ok, err := sdk.CurrentRecorded(abs); err != nil || !ok {
		return fmt.Errorf("the placed SDK is not current (%v) or its stat cache was not written: %v", ok, err)
	}
	// The listing index a build writes last, under the root's lock.
	if err := discovery.WriteIndex(abs); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "writerecords: %d workflows marked built in %s\n", len(root.Workflows), abs)
	return nil
}
