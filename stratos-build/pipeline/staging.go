package pipeline

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/stratoscli/stratos/shared/freshness"
)

// stagingPrefix names the directories a build compiles into before its
// output replaces <wf>/dist. They sit beside dist/ (same depth, so module
// resolution and import.meta-relative paths behave the same when the
// definition loads from there) and start with a dot, so discovery, the
// freshness walk and the definition of "authored files" all skip them.
const stagingPrefix = ".stratos-dist-"

// stagingName is the staging directory's name: the same on every build.
// node's compile cache (NODE_COMPILE_CACHE, shared by every node Stratos
// starts) keys each module by its path, and the definition loader imports
// each compiled entry from here; under a random name every build added
// one cache file per workflow that no later build could use, without end.
// Under this name, a workflow has one entry there, replaced when its
// module changes. Only one build of a root runs at a time (the root lock),
// so one name per workflow is enough.
const stagingName = stagingPrefix + "staging"

// staging is one build's private output directory: the compiler writes
// into it, the definition loads from it and the build record is written
// into it last; only then does it replace dist/ in one rename. A build
// that fails or is interrupted removes it and leaves the previous dist/
// and build record exactly as they were.
type staging struct {
	wfDir string
	dir   string
}

// newStaging removes what killed builds of the workflow in wfDir left
// behind and creates a fresh staging directory.
func newStaging(wfDir string) (*staging, error) {
	removeStaleStaging(wfDir)
	dir := filepath.Join(wfDir, stagingName)
	if err := os.Mkdir(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create the build's staging directory in %s: %w", wfDir, err)
	}
	return &staging{wfDir: wfDir, dir: dir}, nil
}

// removeStaleStaging deletes staging directories of wfDir: only a build
// holding the root lock creates one, and it removes its own, so any found
// here belong to a build that was killed.
func removeStaleStaging(wfDir string) {
	old, _ := filepath.Glob(filepath.Join(wfDir, stagingPrefix+"*"))
	for _, p := range old {
		_ = os.RemoveAll(p)
	}
}

// entry is the compiled entrypoint's absolute path inside the staging
// directory.
func (s *staging) entry(entrypoint string) string {
	rel := freshness.CompiledEntry(s.wfDir, entrypoint) // dist/<wf>/<entry>.js
	return filepath.Join(s.dir, filepath.FromSlash(rel[len("dist/"):]))
}

// discard removes the staging directory; the previous dist/ stays.
func (s *staging) discard() { _ = os.RemoveAll(s.dir) }

// commit makes the staged output, already on disk (see durable.go), the
// workflow's dist/, and returns once the rename is on disk too. Where the
// file system supports it, the two directories are exchanged in one atomic
// rename, so at every instant dist/ is either the complete old build or the
// complete new one; the old one is then removed.
func (s *staging) commit() error {
	if err := s.swap(); err != nil {
		return err
	}
	return syncPath(s.wfDir)
}

// swap renames the staging directory to dist/.
func (s *staging) swap() error {
	dist := filepath.Join(s.wfDir, "dist")
	err := unix.Renameat2(unix.AT_FDCWD, s.dir, unix.AT_FDCWD, dist, unix.RENAME_EXCHANGE)
	switch {
	case err == nil:
		// s.dir now holds the previous build.
	case errors.Is(err, unix.ENOENT):
		// No previous build: a plain rename.
		if err := os.Rename(s.dir, dist); err != nil {
			return fmt.Errorf("move the build output into %s: %w", dist, err)
		}
		return nil
	case errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS):
		// No exchange on this file system: move the old output aside
		// first. A crash in between leaves no dist/ (the workflow reads as
		// not built), never a mix of two builds.
		if err := os.Rename(dist, s.dir+".old"); err != nil {
			return fmt.Errorf("move the previous build out of %s: %w", dist, err)
		}
		if err := os.Rename(s.dir, dist); err != nil {
			return fmt.Errorf("move the build output into %s: %w", dist, err)
		}
		s.dir += ".old"
	default:
		return fmt.Errorf("swap the build output into %s: %w", dist, err)
	}
	s.discard()
	return nil
}

// asDist rewrites the staging directory's path in r's diagnostics to the
// dist/ it was meant to become: a module that fails to load is reported
// where the user will look for it, not in a directory that is gone.
func (s *staging) asDist(r *Result) *Result {
	dist := filepath.Join(s.wfDir, "dist")
	for i, d := range r.Diagnostics {
		r.Diagnostics[i].Message = strings.ReplaceAll(d.Message, s.dir, dist)
		r.Diagnostics[i].File = strings.ReplaceAll(d.File, s.dir, dist)
	}
	return r
}
