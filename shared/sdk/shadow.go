package sdk

import (
	"os"
	"path/filepath"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/buildapi"
)

// FindShadowingSDK returns an error (code sdk_shadowed) when workflow code in
// wfDir would resolve @stratoscli/stratos to a copy closer than root's: node
// looks in every node_modules from the importing file upwards, so a copy in
// wfDir (or in a directory between wfDir and root) wins over the shared one,
// and two SDK instances do not share the runtime's state.
func FindShadowingSDK(root, wfDir string) error {
	root, wfDir = filepath.Clean(root), filepath.Clean(wfDir)
	for dir := wfDir; dir != root; {
		candidate := filepath.Join(dir, "node_modules", "@stratoscli", "stratos")
		if _, err := os.Lstat(candidate); err == nil {
			return clierr.New(buildapi.CodeSDKShadowed,
				"%s shadows the discovery root's shared SDK (%s): workflows must use the one Stratos installs; remove it (and any @stratoscli/stratos dependency from %s)",
				candidate, InstalledDir(root), filepath.Join(dir, "package.json")).
				WithDetails(map[string]any{"path": candidate, "root": root})
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break // wfDir is not inside root: nothing more to check
		}
		dir = parent
	}
	return nil
}
