package doclinks

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// outsidePointer matches the ways code comments used to send readers to
// documents kept outside the repository (the behaviour spec, the design
// document, the harness research notes). The repository's own pages under
// docs/ (design notes in docs/design/) replace them.
var outsidePointer = regexp.MustCompile(`shared/research|research/[a-z-]+\.md|[a-z-]+\.md §|§\d|DESIGN\.md|stratos-runtime\.md|\bthe spec\b|\bspec's\b|\bspec "|\(spec[ :]|the specification fixes|from the specification`)

// sourceFile reports whether a file is code or a script whose comments the
// check covers: compiled and generated output and installed packages are
// not.
func sourceFile(rel string) bool {
	for _, skip := range []string{"node_modules/", "/dist/", ".git/", "docs/"} {
		if strings.Contains("/"+rel, "/"+strings.TrimSuffix(skip, "/")+"/") || strings.HasPrefix(rel, skip) {
			return false
		}
	}
	switch filepath.Ext(rel) {
	case ".go", ".ts", ".mjs", ".js", ".sh", ".txtar":
		return true
	}
	return strings.HasPrefix(rel, "scripts/") && filepath.Ext(rel) == ""
}

// OutsidePointers returns "file:line: text" for every line of the
// repository's code and scripts that points at a document outside it.
// Files named in ignore (relative to root) are skipped.
func OutsidePointers(root string, ignore map[string]bool) ([]string, error) {
	var found []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if d.Name() == ".git" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if ignore[rel] || !sourceFile(rel) {
			return nil
		}
		return scanFile(path, rel, &found)
	})
	return found, err
}

func scanFile(path, rel string, found *[]string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 4*1024*1024)
	hashComments := filepath.Ext(rel) == ".sh" || filepath.Ext(rel) == ".txtar" || filepath.Ext(rel) == ""
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if outsidePointer.MatchString(comment(line, hashComments)) {
			*found = append(*found, rel+":"+strconv.Itoa(n)+": "+strings.TrimSpace(line))
		}
	}
	return sc.Err()
}

// comment returns the comment part of a line: after "#" in shell scripts
// and testscripts, after "//" (not "://") or on a "/*" or " *" line in Go,
// TypeScript and JavaScript. Code is not checked: a variable may be named
// spec.
func comment(line string, hash bool) string {
	trimmed := strings.TrimSpace(line)
	if hash {
		if strings.HasPrefix(trimmed, "#") {
			return trimmed
		}
		return ""
	}
	if strings.HasPrefix(trimmed, "/*") || strings.HasPrefix(trimmed, "*") {
		return trimmed
	}
	for i := strings.Index(line, "//"); i >= 0; {
		if i == 0 || line[i-1] != ':' {
			return line[i:]
		}
		next := strings.Index(line[i+2:], "//")
		if next < 0 {
			break
		}
		i += 2 + next
	}
	return ""
}
