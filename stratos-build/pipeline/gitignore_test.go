package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestAddIgnoreRulesReadsOnlyAnIgnoreFile: rules are added to a .gitignore
// there is, or to a new one; a FIFO in its place (which the old read waited
// on for ever) or a file beyond any .gitignore is an error, not a hang and
// not a rewrite.
func TestAddIgnoreRulesReadsOnlyAnIgnoreFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".gitignore")
	if err := addIgnoreRules(path, []string{"/dist/"}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("/dist/\nnode_modules/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := addIgnoreRules(path, []string{"/dist/", "/.generated/"}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); strings.Count(string(data), "/dist/") != 1 || !strings.Contains(string(data), "/.generated/") {
		t.Errorf(".gitignore after adding: %q", data)
	}

	fifo := filepath.Join(t.TempDir(), ".gitignore")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := addIgnoreRules(fifo, []string{"/dist/"}); err == nil {
		t.Error("a FIFO in the place of .gitignore was taken")
	}

	huge := filepath.Join(t.TempDir(), ".gitignore")
	if err := os.WriteFile(huge, make([]byte, maxIgnoreFileBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := addIgnoreRules(huge, []string{"/dist/"}); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Errorf("a .gitignore over the limit: %v", err)
	}
	if info, _ := os.Stat(huge); info.Size() != maxIgnoreFileBytes+1 {
		t.Error("a .gitignore over the limit was rewritten")
	}
}
