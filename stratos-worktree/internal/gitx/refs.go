package gitx

import (
	"bytes"
	"context"
	"strings"
)

// Ref is one line of `git for-each-ref`.
type Ref struct {
	Name   string // full name, e.g. refs/remotes/origin/HEAD
	Commit string // the object it resolves to
	Target string // for a symbolic ref, the ref it points to
}

// Refs lists the refs matching patterns (for-each-ref patterns: exact names
// or prefixes ending at a '/'), keyed by full name. One call answers several
// questions at once, which keeps acquire close to a bare `git worktree add`.
func (g *Git) Refs(ctx context.Context, repo string, patterns ...string) (map[string]Ref, error) {
	args := append([]string{"for-each-ref", "--format=%(refname)%09%(objectname)%09%(symref)"}, patterns...)
	out, err := g.Run(ctx, repo, args...)
	if err != nil {
		return nil, err
	}
	refs := map[string]Ref{}
	for _, line := range bytes.Split(out, []byte{'\n'}) {
		parts := strings.Split(string(line), "\t")
		if len(parts) != 3 {
			continue
		}
		refs[parts[0]] = Ref{Name: parts[0], Commit: parts[1], Target: parts[2]}
	}
	return refs, nil
}
