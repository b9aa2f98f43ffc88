package modelsdev

import (
	"bytes"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
)

// Models.dev keeps 209 provider files as git symlinks to another provider's
// file. A checkout made without symlink support (core.symlinks=false, or an
// export that flattened them) holds the link target as the file's text
// instead; both forms are followed here, the same way.

const (
	maxLinkHops       = 8
	reasonUnreadable  = "file cannot be read"
	reasonMissing     = "target does not exist"
	reasonOutside     = "target is outside the source tree"
	reasonAbsolute    = "target is an absolute path"
	reasonDirectory   = "target is a directory"
	reasonTooManyHops = "too many levels of links"
)

// readResolved returns the content of rel after following symlinks and link
// stubs, and the slash path of the file finally read. A link that cannot be
// followed comes back as a Dangling (Target is the last target tried).
func (r *reader) readResolved(rel string) ([]byte, string, *Dangling) {
	cur := rel
	for hop := 0; hop <= maxLinkHops; hop++ {
		fi, err := fs.Lstat(r.src.fsys, cur)
		if err != nil {
			return nil, "", &Dangling{Path: rel, Target: cur, Reason: reasonMissing}
		}
		var target string
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			if target, err = fs.ReadLink(r.src.fsys, cur); err != nil {
				return nil, "", &Dangling{Path: rel, Target: cur, Reason: reasonUnreadable}
			}
			target = filepath.ToSlash(target)
		case fi.IsDir():
			return nil, "", &Dangling{Path: rel, Target: cur, Reason: reasonDirectory}
		default:
			content, err := fs.ReadFile(r.src.fsys, cur)
			if err != nil {
				return nil, "", &Dangling{Path: rel, Target: cur, Reason: reasonUnreadable}
			}
			stub, isStub := linkStubTarget(content)
			if !isStub {
				return content, cur, nil
			}
			target = stub
		}
		next, reason := joinTarget(cur, target)
		if reason != "" {
			return nil, "", &Dangling{Path: rel, Target: target, Reason: reason}
		}
		cur = next
	}
	return nil, "", &Dangling{Path: rel, Target: cur, Reason: reasonTooManyHops}
}

// joinTarget resolves a link target against the link's directory and keeps
// it inside the source tree.
func joinTarget(link, target string) (string, string) {
	if path.IsAbs(target) || filepath.IsAbs(target) {
		return "", reasonAbsolute
	}
	joined := path.Join(path.Dir(link), target)
	if joined == ".." || strings.HasPrefix(joined, "../") {
		return "", reasonOutside
	}
	return joined, ""
}

// linkStubTarget recognises a flattened symlink: a single line naming a
// .toml path. Such text is never valid TOML (a key needs "="), so no real
// model file can be mistaken for a stub.
func linkStubTarget(content []byte) (string, bool) {
	s := bytes.TrimRight(content, "\r\n")
	if len(s) == 0 || len(s) > 1024 || bytes.ContainsAny(s, "\r\n=#[\"'") {
		return "", false
	}
	if !bytes.HasSuffix(s, []byte(".toml")) {
		return "", false
	}
	return string(s), true
}
