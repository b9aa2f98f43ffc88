package toolchain

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/stratoscli/stratos/shared/atomicfile"
)

// nodeVersionsFile, in the toolchain directory, remembers what `node
// --version` said for each node binary Stratos looked at. Starting a node
// only to ask its version costs 10-50 ms, and `stratos run` chooses its node
// on every run: with the answer remembered, choosing costs one stat.
const nodeVersionsFile = "node-versions.json"

// knownNode is one remembered answer. The binary counts as unchanged while
// its size and modification time are (an upgrade replaces both).
type knownNode struct {
	Size    int64  `json:"size"`
	ModTime int64  `json:"modTimeNs"`
	Version string `json:"version"` // as `node --version` printed it
}

// cachedNodeVersion is nodeVersion, answered from the toolchain directory
// dir when node (followed through symlinks) has not changed since it was
// last asked. Failing to read or write the file only costs the exec.
func cachedNodeVersion(ctx context.Context, dir, node string) (string, int, error) {
	fi, err := os.Stat(node)
	if dir == "" || err != nil {
		return nodeVersion(ctx, node)
	}
	path := filepath.Join(dir, nodeVersionsFile)
	known := map[string]knownNode{}
	if data, err := os.ReadFile(path); err == nil {
		_ = json.Unmarshal(data, &known)
	}
	if k, ok := known[node]; ok && k.Size == fi.Size() && k.ModTime == fi.ModTime().UnixNano() {
		if v, major, err := parseNodeVersion(k.Version); err == nil {
			return v, major, nil
		}
	}
	v, major, err := nodeVersion(ctx, node)
	if err != nil {
		return "", 0, err
	}
	known[node] = knownNode{Size: fi.Size(), ModTime: fi.ModTime().UnixNano(), Version: "v" + v}
	writeKnownNodes(path, known)
	return v, major, nil
}

// writeKnownNodes replaces the file atomically, so that concurrent Stratos
// processes never read half of it (the last writer wins; any answer is right).
func writeKnownNodes(path string, known map[string]knownNode) {
	data, err := json.MarshalIndent(known, "", "  ")
	if err != nil {
		return
	}
	// A cache: a failed write only costs the next lookup a `node --version`.
	_ = atomicfile.WriteFile(path, append(data, '\n'), atomicfile.Public, atomicfile.NoSync())
}
