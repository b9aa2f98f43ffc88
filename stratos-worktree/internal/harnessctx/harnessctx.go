// Package harnessctx produces the one piece of text that tells a harness it
// works in a Stratos-managed worktree. The context is minimal
// (docs/design/worktrees.md):
// where the worktree is, which repository it came from, the branch it was on
// when the session began, and that Stratos (not the harness) owns its
// lifecycle. Adapters add this text once per session through their native
// system/developer instruction mechanism.
package harnessctx

import "strings"

// Info is what the text states.
type Info struct {
	Path       string // the worktree checkout, the harness's working directory
	Repository string // the repository it was created from
	Branch     string // branch at initialization; empty when HEAD is detached
	Head       string // commit at initialization, used when detached
}

// Text returns the harness context for info.
func Text(info Info) string {
	var b strings.Builder
	b.WriteString("You are working in a git worktree managed by Stratos.\n")
	b.WriteString("Worktree: " + info.Path + "\n")
	b.WriteString("Source repository: " + info.Repository + "\n")
	b.WriteString("Branch at initialization: " + branchText(info) + "\n")
	b.WriteString("Stratos creates and removes this worktree; do not create, remove or prune git worktrees yourself.\n")
	return b.String()
}

func branchText(info Info) string {
	if info.Branch != "" {
		return info.Branch
	}
	head := info.Head
	if len(head) > 12 {
		head = head[:12]
	}
	if head == "" {
		return "(detached HEAD)"
	}
	return "(detached HEAD at " + head + ")"
}
