package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"

	"github.com/stratoscli/stratos/shared/atomicfile"
	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/sdk"
	"github.com/stratoscli/stratos/stratos-build/wrappergen"
)

// emitter is the build's emit stage: it writes the wrapper of a workflow
// whose definition is known (<root>/.generated/<name>.ts, which its
// parents compile against) and tells whether the wrapper on disk is the
// one its build wrote. It holds no state: several workflows' wrappers may
// be written at once.
type emitter struct {
	rootDir string
	steps   *stepTimes
}

// write writes w's wrapper (opts are atomicfile's) and returns its hash.
func (e *emitter) write(w *discovery.Workflow, def *sdk.Definition, opts ...atomicfile.Option) (string, *Result) {
	defer e.steps.start("wrapper")()
	wr := wrappergen.Wrapper{
		Name: w.Manifest.Name, Dir: filepath.Base(w.Dir), Entrypoint: w.Manifest.Entrypoint,
		Input: def.Input, Output: def.Output,
	}
	if _, err := wrappergen.WriteFile(e.rootDir, wr, opts...); err != nil {
		return "", failed(w, ReasonWrapper, message("generate the wrapper of %s: %v", w.Manifest.Name, err))
	}
	return wrapperSum(e.rootDir, w.Manifest.Name), nil
}

// current reports whether w's wrapper on disk is the one its current
// build generated (the hash in the build record discovery read).
func (e *emitter) current(w *discovery.Workflow) bool {
	rec := w.Record()
	return rec != nil && rec.WrapperSHA256 != "" && wrapperSum(e.rootDir, w.Manifest.Name) == rec.WrapperSHA256
}

// wrapperSum is the SHA-256 of a workflow's wrapper file, "" when missing.
func wrapperSum(root, name string) string {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(wrappergen.FileName(name))))
	if err != nil {
		return ""
	}
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}
