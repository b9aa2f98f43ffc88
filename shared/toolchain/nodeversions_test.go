package toolchain

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// countingNode writes a fake node that records each run in calls.
func countingNode(t *testing.T, dir, version, calls string) string {
	t.Helper()
	p := filepath.Join(dir, "node")
	script := "#!/bin/sh\necho run >> " + calls + "\necho " + version + "\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCachedNodeVersion(t *testing.T) {
	dir, bin := t.TempDir(), t.TempDir()
	calls := filepath.Join(bin, "calls")
	node := countingNode(t, bin, "v24.1.0", calls)
	runs := func() int {
		data, _ := os.ReadFile(calls)
		return strings.Count(string(data), "run")
	}
	for i := 0; i < 3; i++ {
		v, major, err := cachedNodeVersion(context.Background(), dir, node)
		if err != nil || v != "24.1.0" || major != 24 {
			t.Fatalf("cachedNodeVersion = %q, %d, %v", v, major, err)
		}
	}
	if runs() != 1 {
		t.Errorf("node ran %d times for three questions, want once", runs())
	}

	// A replaced binary is asked again.
	countingNode(t, bin, "v25.10.0", calls)
	future := time.Now().Add(time.Hour)
	if err := os.Chtimes(node, future, future); err != nil {
		t.Fatal(err)
	}
	v, _, err := cachedNodeVersion(context.Background(), dir, node)
	if err != nil || v != "25.10.0" || runs() != 2 {
		t.Errorf("after replacing node: %q, %v, %d runs", v, err, runs())
	}

	// A damaged file costs only the exec.
	if err := os.WriteFile(filepath.Join(dir, nodeVersionsFile), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if v, _, err := cachedNodeVersion(context.Background(), dir, node); err != nil || v != "25.10.0" {
		t.Errorf("with a damaged file: %q, %v", v, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("toolchain dir holds %d entries, want only %s", len(entries), nodeVersionsFile)
	}
}
