package errdocs

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/testscripts/internal/clidocs"
)

// The committed table must be what the contracts say today: a code added
// without regenerating fails here.
func TestCommittedTableIsCurrent(t *testing.T) {
	root, err := clidocs.WorkingRepositoryRoot()
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(root, Path))
	if err != nil {
		t.Fatal(err)
	}
	want, err := Splice(page, Table())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(page, want) {
		t.Fatalf("the error-code table in %s is stale: %s", Path, clidocs.RegenerateHint)
	}
}

func TestSpliceReplacesOnlyBetweenTheMarkers(t *testing.T) {
	page := []byte("# Errors\n\nby hand\n\n" + Begin + "\nold table\n" + End + "\n\nafter\n")
	got, err := Splice(page, []byte("new table\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := "# Errors\n\nby hand\n\n" + Begin + "\nnew table\n" + End + "\n\nafter\n"
	if string(got) != want {
		t.Fatalf("Splice = %q, want %q", got, want)
	}
	if _, err := Splice([]byte("# no markers\n"), []byte("x")); err == nil {
		t.Fatal("Splice of a page without markers succeeded")
	}
}

func TestTableListsEveryContract(t *testing.T) {
	table := string(Table())
	for _, want := range []string{"### Every command", "| `interrupted` | 130 |", "### stratos-worktree", "| `path_conflict` | 1 |", "| `workflow_not_found` | 2 |"} {
		if !strings.Contains(table, want) {
			t.Errorf("the table lacks %q", want)
		}
	}
}
