package modelsdev

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/stratoscli/stratos/shared/procgroup"
)

// Revision names the Models.dev commit a source tree holds.
type Revision struct {
	Commit string // 40 hex digits
	Date   string // committer date, ISO 8601 (may be empty)
}

// ReadRevision finds the commit src holds: from a REVISION file
// ("<commit> <date>" on its first line, as in an exported snapshot or an
// archive), or else, for a directory, from git, in which case the checkout
// must be clean below models/ and providers/ — local edits would make the
// catalog claim a commit it does not match.
func ReadRevision(ctx context.Context, src *Source) (Revision, error) {
	data, err := fs.ReadFile(src.fsys, "REVISION")
	if err == nil {
		return parseRevisionFile(src.where("REVISION"), data)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return Revision{}, fmt.Errorf("read %s: %w", src.where("REVISION"), err)
	}
	if src.dir == "" {
		return Revision{}, fmt.Errorf("cannot tell which Models.dev commit %s holds: the archive has no REVISION file", src.name)
	}
	if _, err := os.Stat(filepath.Join(src.dir, ".git")); err != nil {
		return Revision{}, fmt.Errorf("cannot tell which Models.dev commit %s holds: it has no REVISION file and is not a git checkout", src.dir)
	}
	return gitRevision(ctx, src.dir)
}

func parseRevisionFile(name string, data []byte) (Revision, error) {
	first, _, _ := strings.Cut(string(data), "\n")
	fields := strings.Fields(first)
	if len(fields) == 0 || !isCommitHash(fields[0]) {
		return Revision{}, fmt.Errorf("%s: first line must start with a 40-digit commit hash, found %q", name, first)
	}
	rev := Revision{Commit: strings.ToLower(fields[0])}
	if len(fields) > 1 {
		rev.Date = fields[1]
	}
	return rev, nil
}

func isCommitHash(s string) bool {
	if len(s) != 40 {
		return false
	}
	for _, c := range strings.ToLower(s) {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func gitRevision(ctx context.Context, root string) (Revision, error) {
	out, err := git(ctx, root, "log", "-1", "--format=%H %cI", "HEAD")
	if err != nil {
		return Revision{}, err
	}
	rev, err := parseRevisionFile("git log -1 in "+root, []byte(out))
	if err != nil {
		return Revision{}, err
	}
	status, err := git(ctx, root, "status", "--porcelain", "--", "models", "providers")
	if err != nil {
		return Revision{}, err
	}
	if strings.TrimSpace(status) != "" {
		return Revision{}, fmt.Errorf("%s has local changes under models/ or providers/; generate from a clean checkout of the pinned commit:\n%s", root, status)
	}
	return rev, nil
}

func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := procgroup.Run(cmd, procgroup.Options{}); err != nil {
		return "", fmt.Errorf("git %s in %s: %w: %s", strings.Join(args, " "), dir, err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// ReadLicense returns the first non-empty line of the tree's LICENSE file
// (e.g. "MIT License"), or "" when there is none.
func ReadLicense(src *Source) string {
	data, err := fs.ReadFile(src.fsys, "LICENSE")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		if s := strings.TrimSpace(line); s != "" {
			return s
		}
	}
	return ""
}
