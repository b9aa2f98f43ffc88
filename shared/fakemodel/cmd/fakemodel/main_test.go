package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRunRejectsBadUsageAndScripts(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"turns":[{}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{},                            // no -script
		{"-script", bad, "extra"},     // stray argument
		{"-bogus"},                    // unknown flag
		{"-script", bad},              // invalid script
		{"-script", bad + ".missing"}, // unreadable script
	} {
		if code := run(args); code != 2 {
			t.Errorf("run(%q) = %d, want 2", args, code)
		}
	}
}
