package gitx

import (
	"bytes"
	"context"
	"slices"

	"github.com/stratoscli/stratos/shared/contract/worktreeapi"
)

// Changes lists what makes a checkout dirty, by kind.
type Changes = worktreeapi.Changes

// Status returns the changes of the checkout at path.
func (g *Git) Status(ctx context.Context, path string) (Changes, error) {
	out, err := g.Run(ctx, path, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignore-submodules=none")
	if err != nil {
		return Changes{}, err
	}
	return parseStatus(out), nil
}

// parseStatus parses `git status --porcelain=v1 -z`: "XY path" records, where
// X is the index (staged) state and Y the work-tree (unstaged) state; a
// rename or copy is followed by one more record holding the source path.
func parseStatus(out []byte) Changes {
	c := Changes{Staged: []string{}, Unstaged: []string{}, Untracked: []string{}}
	records := bytes.Split(out, []byte{0})
	for i := 0; i < len(records); i++ {
		rec := records[i]
		if len(rec) < 4 {
			continue
		}
		x, y, path := rec[0], rec[1], string(rec[3:])
		switch {
		case x == '?' && y == '?':
			c.Untracked = append(c.Untracked, path)
			continue
		case x == '!':
			continue
		}
		if x != ' ' {
			c.Staged = append(c.Staged, path)
		}
		if y != ' ' {
			c.Unstaged = append(c.Unstaged, path)
		}
		if x == 'R' || x == 'C' {
			i++ // skip the source path of a rename or copy
		}
	}
	slices.Sort(c.Staged)
	slices.Sort(c.Unstaged)
	slices.Sort(c.Untracked)
	return c
}

// Ignored lists the git-ignored entries of the checkout at path, as slash
// paths relative to it. A directory whose every entry is ignored is listed
// once, with a trailing "/", instead of file by file; empty directories are
// left out.
func (g *Git) Ignored(ctx context.Context, path string) ([]string, error) {
	out, err := g.Run(ctx, path, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory", "--no-empty-directory")
	if err != nil {
		return nil, err
	}
	var entries []string
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) > 0 {
			entries = append(entries, string(rec))
		}
	}
	slices.Sort(entries)
	return entries, nil
}
