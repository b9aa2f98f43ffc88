package pipeline

import (
	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/discovery"
)

// writeListIndex refreshes the root's listing index after a build changed
// it, under the root's lock. Listing works without an index, only slower,
// so a failure is a warning, never a failed build.
func writeListIndex(rootDir string, log hclog.Logger) {
	if err := discovery.WriteIndex(rootDir); err != nil {
		log.Warn("write the list index", "root", rootDir, "error", err)
	}
}
