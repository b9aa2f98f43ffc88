package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/filestat"
	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/shared/sdk"
)

// A leaf edit makes every workflow that requires the leaf stale, because
// the key of a parent holds the keys of its children. When the edit keeps
// the leaf's schemas, the leaf's new wrapper is byte-identical to the one
// its parents compiled against, and a parent's module imports its child's
// wrapper only (which names the child's compiled entry as a string; the
// child's module is not evaluated). Evaluating the parent's module again
// then evaluates the same code, from the same files, with the same node
// and the same packages, and reports the same definition as the one its
// build record holds. A batch keeps that definition instead of loading
// it with node (definitions.kept lists the conditions), and finishBatch
// keeps the parent's build only when its children's wrappers held, as for
// any other parent: otherwise it is built again one by one, definition
// loaded.
//
// The record and the dist/ written are what loading would have written:
// the record's output schema and wrapper hash come from the previous
// record, which the same definition wrote. What is lost is the module's
// own output (console output of its top-level code), which is not printed
// on such a rebuild.

// ctimeMargin is how much earlier than the record's time a file may have
// changed and still count as changed after it: the record's time comes
// from the system clock, a file's ctime from the file system's, whose
// granularity (a jiffy on some file systems) makes them disagree.
const ctimeMargin = time.Second

// kept returns w's build record when the definition it holds is the one
// evaluating w's module would report now, nil when w's definition must be
// loaded; installed is the state of the root's SDK in this build. That is
// when:
//
//   - the command does not want w's definition itself (describe and
//     schema print what loading reports, the module's output included);
//   - w is stale only because the keys of the children it requires
//     changed: same toolchain, same files and imports, same children;
//   - the record holds the output schema and the wrapper's hash, and the
//     wrapper on disk is that one;
//   - the root's SDK is this Stratos's and was not reinstalled by this
//     build, w has no node_modules of its own, and neither node nor the
//     root's packages changed since the record was written (their ctimes,
//     npm's install record for the packages).
func (d *definitions) kept(ctx context.Context, w *discovery.Workflow, installed sdkState) *freshness.Record {
	rec := w.Record()
	if rec == nil || w == d.wanted || len(rec.OutputSchema) == 0 || rec.WrapperSHA256 == "" {
		return nil
	}
	if !staleByChildKeysOnly(w, rec) || installed.reinstalled || !installed.current {
		return nil
	}
	if _, err := os.Lstat(filepath.Join(w.Dir, "node_modules")); err == nil {
		return nil
	}
	tc, err := d.tools.get(ctx)
	if err != nil {
		return nil
	}
	since := rec.BuiltAt.Add(-ctimeMargin)
	if changedSince(since, filepath.Join(d.rootDir, "node_modules", ".package-lock.json")) || linkChainChangedSince(since, tc.Node) {
		return nil
	}
	if !d.wrappers.current(w) {
		return nil
	}
	return rec
}

// staleByChildKeysOnly reports whether w's sources are those rec was built
// from, with the same toolchain and the same children, only their keys
// differing.
func staleByChildKeysOnly(w *discovery.Workflow, rec *freshness.Record) bool {
	if w.Status != freshness.NotBuilt || w.Reason != freshness.ReasonReferenceChanged {
		return false
	}
	old, now := rec.Parts, w.Parts
	if !old.Toolchain.Equal(now.Toolchain) || !slices.Equal(old.Files, now.Files) || !slices.Equal(old.Imports, now.Imports) {
		return false
	}
	return slices.EqualFunc(old.References, now.References, func(a, b freshness.Reference) bool { return a.Name == b.Name })
}

// changedSince reports whether the file at p changed (its ctime) after
// since, or cannot be stat'ed: what is unknown counts as changed.
func changedSince(since time.Time, p string) bool {
	st, err := filestat.Path(p)
	return err != nil || ctimeAfter(st, since)
}

// linkChainChangedSince is changedSince for p, each symbolic link on the
// way from p to its target (a switched version manager retargets a link),
// and the target.
func linkChainChangedSince(since time.Time, p string) bool {
	for range 16 {
		st, err := filestat.Lstat(p)
		if err != nil || ctimeAfter(st, since) {
			return true
		}
		target, err := os.Readlink(p)
		if errors.Is(err, syscall.EINVAL) { // not a link: the end of the chain
			return false
		}
		if err != nil {
			return true
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(p), target)
		}
		p = target
	}
	return true
}

func ctimeAfter(st filestat.Stat, since time.Time) bool {
	return time.Unix(0, st.Ctime).After(since)
}

// keptDefinition is the part of a definition a kept build needs: the
// output schema its record holds. The wrapper is not written again (it is
// the record's), so the input schema is not needed.
func keptDefinition(rec *freshness.Record) *sdk.Definition {
	return &sdk.Definition{Output: rec.OutputSchema}
}
