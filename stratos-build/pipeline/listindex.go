package pipeline

import (
	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/discovery"
)

// writeListIndex refreshes the root's listing index after a build, under
// the root's lock. With the build's outcome, only the workflows it wrote
// are scanned again (discovery.RefreshIndex); without one (the build
// stopped before it had one) every entry is checked (discovery.WriteIndex).
// Listing works without an index, only slower, so a failure is a warning,
// never a failed build.
func writeListIndex(rootDir string, out *Outcome, log hclog.Logger) {
	var err error
	if out == nil {
		err = discovery.WriteIndex(rootDir)
	} else {
		err = discovery.RefreshIndex(rootDir, touchedDirs(out))
	}
	if err != nil {
		log.Warn("write the list index", "root", rootDir, "error", err)
	}
}

// touchedDirs are the directories of the workflows a build may have
// written: every result but those reused as they were.
func touchedDirs(out *Outcome) []string {
	dirs := []string{}
	for _, r := range out.Results {
		if r.Status != StatusUpToDate {
			dirs = append(dirs, r.Dir)
		}
	}
	return dirs
}
