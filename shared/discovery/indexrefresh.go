package discovery

import (
	"bytes"
	"fmt"
	"io/fs"
	"path/filepath"

	fastjson "github.com/segmentio/encoding/json"

	"github.com/stratoscli/stratos/shared/filestat"
	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/shared/manifest"
)

// RefreshIndex brings the listing index of the discovery root at rootDir up
// to date after a build that wrote the workflow directories touched (paths
// of directories directly in the root; others are ignored), and only them.
// Where WriteIndex checks every entry's stat data, this rescans the touched
// workflows and the workflow directories without an entry (new, or left
// out before), keeps every other entry as it was without checking it, and
// drops those of directories that are gone: an untouched workflow changed
// since its entry was written keeps that entry, which listing then finds
// does not hold and reads the workflow instead, until a build touches it.
// Nothing is written when no entry changed. When the outcome of the build
// is not known, call WriteIndex instead; this falls back to it when there
// is no index to refresh, the file system changed, or a rescanned
// workflow's name clashes with another's (WriteIndex then leaves the
// duplicates out, as listing reports them). The caller holds the root's
// build lock.
func RefreshIndex(rootDir string, touched []string) error {
	prev := readIndex(rootDir)
	if prev == nil {
		return WriteIndex(rootDir)
	}
	plan, err := planRefresh(rootDir, prev, touched)
	if err != nil {
		return err
	}
	if len(plan.scan) == 0 && !plan.dropped {
		return nil
	}
	clock, err := readIndexClock(rootDir)
	if err != nil {
		return err
	}
	if clock.Dev != prev.Clock.Dev {
		return WriteIndex(rootDir)
	}
	scanned := make([]*indexEntry, len(plan.scan))
	parallel(len(plan.scan), func(i int) {
		// A Scanner of its own, as in WriteIndex.
		scanned[i] = indexWorkflow(freshness.NewScanner(rootDir), filepath.Join(rootDir, plan.scan[i]), clock)
	})
	if plan.clashes(scanned) {
		return WriteIndex(rootDir)
	}
	changed, err := plan.changes(scanned)
	if err != nil {
		return fmt.Errorf("write the list index: %w", err)
	}
	if !changed {
		return nil
	}
	return writeIndexFile(rootDir, clock, append(plan.kept, scanned...))
}

// refreshPlan is what RefreshIndex does with each workflow directory.
type refreshPlan struct {
	prev    *listIndex
	kept    []*indexEntry // untouched entries, undecoded (their lines)
	scan    []string      // directory names to rescan
	dropped bool          // an entry's directory is gone
}

// planRefresh sorts the root's directories into entries kept and
// workflows to rescan.
func planRefresh(rootDir string, prev *listIndex, touched []string) (*refreshPlan, error) {
	dirs, err := filestat.ReadDir(rootDir)
	if err != nil {
		return nil, fmt.Errorf("write the list index: %w", err)
	}
	isTouched := map[string]bool{}
	for _, t := range touched {
		if filepath.Dir(filepath.Clean(t)) == filepath.Clean(rootDir) {
			isTouched[filepath.Base(t)] = true
		}
	}
	p := &refreshPlan{prev: prev}
	present := 0
	for _, d := range dirs {
		if IsIgnoredDir(d.Name) || d.Type != fs.ModeDir {
			continue
		}
		line, indexed := prev.lines[d.Name]
		switch {
		case indexed && !isTouched[d.Name]:
			p.kept = append(p.kept, &indexEntry{Dir: d.Name, raw: line})
		case isWorkflowDir(filepath.Join(rootDir, d.Name)):
			p.scan = append(p.scan, d.Name)
		case indexed:
			p.dropped = true // touched, and no longer a workflow
		}
		if indexed {
			present++
		}
	}
	p.dropped = p.dropped || present != len(prev.lines)
	return p, nil
}

// isWorkflowDir reports whether dir has a manifest.
func isWorkflowDir(dir string) bool {
	_, err := filestat.Lstat(filepath.Join(dir, manifest.FileName))
	return err == nil
}

// clashes reports whether a rescanned workflow's name is another
// directory's, among the rescanned and the kept entries.
func (p *refreshPlan) clashes(scanned []*indexEntry) bool {
	dirOf := map[string]string{}
	fresh := 0
	for _, e := range scanned {
		if e == nil {
			continue
		}
		if _, dup := dirOf[e.Manifest.Name]; dup {
			return true
		}
		dirOf[e.Manifest.Name] = e.Dir
		fresh++
	}
	if fresh == 0 {
		return false
	}
	for _, e := range p.kept {
		var named struct {
			Manifest struct {
				Name string `json:"name"`
			} `json:"manifest"`
		}
		if _, err := fastjson.Parse(e.raw, &named, fastjson.ZeroCopy); err != nil {
			return true // a corrupt line: let WriteIndex sort it out
		}
		if _, dup := dirOf[named.Manifest.Name]; dup {
			return true
		}
	}
	return false
}

// changes reports whether the refreshed index differs from the previous:
// an entry dropped, added, removed or different from its previous line.
func (p *refreshPlan) changes(scanned []*indexEntry) (bool, error) {
	changed := p.dropped
	for i, e := range scanned {
		prevLine, had := p.prev.lines[p.scan[i]]
		if e == nil {
			changed = changed || had
			continue
		}
		line, err := e.line()
		if err != nil {
			return false, err
		}
		changed = changed || !had || !bytes.Equal(line, prevLine)
	}
	return changed, nil
}
