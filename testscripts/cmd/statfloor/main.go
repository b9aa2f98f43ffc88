// Command statfloor is the floor of any stat-based listing, for
// scripts/bench-list: it reads one file (the root's list index, as an index
// would be read, without decoding it) and stats every path named in a
// NUL-separated list, relative to the open root, on a few goroutines, as
// `stratos list` validates its index. It prints nothing on success.
//
//	go run ./testscripts/cmd/statfloor <root-dir> <index-file> <paths-file>
package main

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"sync"

	"github.com/stratoscli/stratos/shared/filestat"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: statfloor <root-dir> <index-file> <paths-file>")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintln(os.Stderr, "statfloor:", err)
		os.Exit(1)
	}
}

func run(rootDir, indexFile, pathsFile string) error {
	if _, err := os.ReadFile(indexFile); err != nil {
		return err
	}
	list, err := os.ReadFile(pathsFile)
	if err != nil {
		return err
	}
	paths := bytes.Split(bytes.TrimSuffix(list, []byte{0}), []byte{0})
	root, err := filestat.OpenDir(rootDir)
	if err != nil {
		return err
	}
	defer root.Close()
	workers := 2 * runtime.GOMAXPROCS(0)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(paths); i += workers {
				if _, err := root.Stat(string(paths[i])); err != nil {
					errs[w] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
