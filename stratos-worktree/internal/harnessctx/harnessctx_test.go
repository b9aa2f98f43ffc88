package harnessctx

import (
	"strings"
	"testing"
)

func TestTextStatesTheFourFacts(t *testing.T) {
	got := Text(Info{Path: "/r/.stratos/worktrees/brave-otter", Repository: "/r", Branch: "stratos/brave-otter", Head: "0123456789abcdef"})
	want := "You are working in a git worktree managed by Stratos.\n" +
		"Worktree: /r/.stratos/worktrees/brave-otter\n" +
		"Source repository: /r\n" +
		"Branch at initialization: stratos/brave-otter\n" +
		"Stratos creates and removes this worktree; do not create, remove or prune git worktrees yourself.\n"
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestTextDetachedHead(t *testing.T) {
	got := Text(Info{Path: "/w", Repository: "/r", Head: "0123456789abcdef0123"})
	if !strings.Contains(got, "Branch at initialization: (detached HEAD at 0123456789ab)\n") {
		t.Fatalf("detached head not stated:\n%s", got)
	}
}
