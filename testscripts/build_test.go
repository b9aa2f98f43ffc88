package testscripts

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestBuild runs testdata/build: stratos build, describe, schema, clean, new
// and the internal `stratos-build prepare`, with the real npm, node and tsc
// (scripts/test warms the toolchain and npm caches first).
//
// Besides the common setup, scripts get $TOOLBIN: the directory holding the
// Stratos binaries and nothing else, so `env PATH=$TOOLBIN` proves that a
// command needs no npm, node, tsc or git.
func TestBuild(t *testing.T) {
	p := params(t, "build")
	base := p.Setup
	p.Setup = func(env *testscript.Env) error {
		if err := base(env); err != nil {
			return err
		}
		dir, err := toolDir(env.Getenv("PATH"))
		if err != nil {
			return err
		}
		env.Setenv("TOOLBIN", dir)
		// Workflow-level npm installs (stratos new's zod) come from the warm
		// cache without asking the registry for fresh metadata first: that
		// round trip made the scripts as slow as the network.
		env.Setenv("npm_config_prefer_offline", "true")
		return nil
	}
	p.Cmds = map[string]func(*testscript.TestScript, bool, []string){
		"exitcode":    exitCode,
		"writerecord": cmdWriteRecord,
		"snapshot":    cmdSnapshot,
	}
	testscript.Run(t, p)
}

// toolDir returns the directory on path where testscript installed the
// linked-in Stratos binaries, and fails if npm or node sit beside them.
func toolDir(path string) (string, error) {
	for _, d := range filepath.SplitList(path) {
		if _, err := os.Stat(filepath.Join(d, "stratos-build")); err != nil {
			continue
		}
		for _, other := range []string{"node", "npm", "tsc", "git"} {
			if _, err := os.Stat(filepath.Join(d, other)); err == nil {
				return "", fmt.Errorf("%s sits beside the Stratos binaries in %s; $TOOLBIN must hold only Stratos", other, d)
			}
		}
		return d, nil
	}
	return "", fmt.Errorf("the testscript binaries (stratos-build) are not on PATH %s", path)
}
