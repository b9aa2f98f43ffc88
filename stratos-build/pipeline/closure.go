package pipeline

import (
	"bytes"
	"os"
	"path/filepath"

	"github.com/stratoscli/stratos/shared/boundedread"
	"github.com/stratoscli/stratos/shared/importscan"
)

// sourceClosure returns the TypeScript sources tsc compiles for entry
// (itself and every file its relative imports reach, transitively), as
// paths relative to root, and whether they may share a compiler program
// with other workflows' sources (see batch.go).
func sourceClosure(root, entry string) ([]string, bool) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, false
	}
	seen := map[string]bool{entry: true}
	queue := []string{entry}
	var out []string
	for len(queue) > 0 {
		file := queue[0]
		queue = queue[1:]
		rel, ok := plainPathIn(root, realRoot, file)
		if !ok {
			return nil, false
		}
		// A source too large to scan is compiled with the others, which
		// is always correct, only slower.
		data, err := boundedread.RegularFile(file, maxIsolationScanBytes)
		if err != nil || !isolatedModule(data) {
			return nil, false
		}
		out = append(out, rel)
		for _, spec := range importscan.Specifiers(string(data)) {
			if !importscan.IsRelative(spec) {
				continue
			}
			target, ok := resolveSource(filepath.Join(filepath.Dir(file), filepath.FromSlash(spec)))
			if !ok {
				return nil, false // tsc reports it; compiled alone
			}
			if !seen[target] {
				seen[target] = true
				queue = append(queue, target)
			}
		}
	}
	return out, true
}

// plainPathIn returns file relative to root when it lies there without any
// symlink on the way (tsc would otherwise place its output by the real
// path).
func plainPathIn(root, realRoot, file string) (string, bool) {
	rel, err := filepath.Rel(root, file)
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	real, err := filepath.EvalSymlinks(file)
	if err != nil || real != filepath.Join(realRoot, rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// resolveSource is where tsc finds the source of an import of target.
func resolveSource(target string) (string, bool) {
	for _, c := range importscan.SourceCandidates(filepath.ToSlash(target)) {
		p := filepath.FromSlash(c)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p, true
		}
	}
	return "", false
}

// maxIsolationScanBytes bounds a source file read to see whether it can be
// compiled alone; a larger one (generated data, say) is compiled with the
// others.
const maxIsolationScanBytes = 16 << 20

// isolatedModule reports whether a source file's declarations stay its
// own: a module (it imports or exports) without global declarations,
// module augmentations or triple-slash directives. Only such files can be
// type-checked in a program shared with other workflows exactly as alone.
func isolatedModule(data []byte) bool {
	for _, leak := range [][]byte{[]byte("declare global"), []byte("declare module"), []byte("/// <reference"), []byte("declare namespace")} {
		if bytes.Contains(data, leak) {
			return false
		}
	}
	return bytes.Contains(data, []byte("import")) || bytes.Contains(data, []byte("export"))
}
