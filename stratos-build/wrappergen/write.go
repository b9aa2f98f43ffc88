package wrappergen

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/stratoscli/stratos/shared/atomicfile"
)

// WriteFile generates w's wrapper and stores it as <root>/.generated/<name>.ts.
// It reports whether the file changed: an unchanged wrapper is left untouched
// (its consumers need no recheck), a changed one replaces the old file
// atomically (temp file + rename), so a failed or interrupted write never
// leaves a half-written wrapper behind. On a generation error nothing is
// written and an existing wrapper is kept for the caller to remove.
// opts are atomicfile's (a batch of builds flushes its wrappers at once).
func WriteFile(root string, w Wrapper, opts ...atomicfile.Option) (changed bool, err error) {
	src, err := Generate(w)
	if err != nil {
		return false, err
	}
	target := filepath.Join(root, filepath.FromSlash(FileName(w.Name)))
	if old, err := os.ReadFile(target); err == nil && bytes.Equal(old, src) {
		return false, nil
	}
	dir := filepath.Dir(target)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, fmt.Errorf("create %s: %w", dir, err)
	}
	if err := atomicfile.WriteFile(target, src, atomicfile.Public, opts...); err != nil {
		return false, err
	}
	return true, nil
}
