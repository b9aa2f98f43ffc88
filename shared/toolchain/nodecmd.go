package toolchain

import (
	"context"
	"os"
	"os/exec"
)

// NodeCommand returns the toolchain's node with args. Its environment is the
// process's plus NODE_COMPILE_CACHE, which caches compiled JavaScript (zod
// and the SDK above all) across runs: about a quarter off node's start-up.
func (tc *Toolchain) NodeCommand(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, tc.Node, args...)
	cmd.Env = append(os.Environ(), "NODE_COMPILE_CACHE="+tc.CompileCacheDir)
	return cmd
}
