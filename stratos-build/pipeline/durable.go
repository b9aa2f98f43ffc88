package pipeline

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// A batched build writes the records and stat caches of its workflows into
// their staging directories without an fsync each (two files and their
// directory each: most of the records phase), then makes all of them
// durable at once with syncfs(2) on each file system they are on, and only
// then renames them into dist/. The guarantee the per-file fsyncs gave
// holds: nothing is published (no dist/ rename) before its content is on
// disk, so a crash leaves each workflow's dist/ the complete old build or
// the complete new one. The staging directories are private until then,
// so no reader sees an unflushed file either. syncfs also flushes the
// compiled output the compiler wrote into them.

// syncFileSystems makes everything written to the file systems that hold
// dirs durable, with one syncfs per file system.
func syncFileSystems(dirs []string) error {
	seen := map[uint64]bool{}
	for _, dir := range dirs {
		var st unix.Stat_t
		if err := unix.Stat(dir, &st); err != nil {
			return fmt.Errorf("flush the build output in %s: %w", dir, err)
		}
		if seen[st.Dev] {
			continue
		}
		seen[st.Dev] = true
		if err := syncfs(dir); err != nil {
			return err
		}
	}
	return nil
}

func syncfs(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("flush the build output in %s: %w", dir, err)
	}
	defer f.Close()
	if err := unix.Syncfs(int(f.Fd())); err != nil {
		return fmt.Errorf("flush the build output in %s: %w", dir, err)
	}
	return nil
}
