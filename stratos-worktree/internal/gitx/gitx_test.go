package gitx

import (
	"reflect"
	"testing"
)

func TestParseWorktreeList(t *testing.T) {
	out := "worktree /r\x00HEAD aaa\x00branch refs/heads/main\x00\x00" +
		"worktree /r/.stratos/worktrees/x\x00HEAD bbb\x00detached\x00locked\x00\x00" +
		"worktree /r/unborn\x00HEAD 0000000000000000000000000000000000000000\x00branch refs/heads/main\x00\x00" +
		"worktree /r/.stratos/worktrees/gone\x00HEAD ccc\x00branch refs/heads/stratos/gone\x00prunable gitdir file points to non-existent location\x00\x00"
	got, err := parseWorktreeList([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	want := []Worktree{
		{Path: "/r", Head: "aaa", Branch: "refs/heads/main"},
		{Path: "/r/.stratos/worktrees/x", Head: "bbb", Detached: true, Locked: true},
		{Path: "/r/unborn", Branch: "refs/heads/main"},
		{Path: "/r/.stratos/worktrees/gone", Head: "ccc", Branch: "refs/heads/stratos/gone", Prunable: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
}

func TestParseStatusSortsEachKind(t *testing.T) {
	out := "M  staged.txt\x00 M unstaged.txt\x00MM both.txt\x00?? new dir/b.txt\x00?? a.txt\x00R  new.txt\x00old.txt\x00"
	got := parseStatus([]byte(out))
	want := Changes{
		Staged:    []string{"both.txt", "new.txt", "staged.txt"},
		Unstaged:  []string{"both.txt", "unstaged.txt"},
		Untracked: []string{"a.txt", "new dir/b.txt"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	if !got.Dirty() || (Changes{}).Dirty() {
		t.Fatal("Dirty() wrong")
	}
}
