// Package doclinks checks the relative links of the repository's Markdown
// documentation (README.md and docs/): every linked file must exist and
// every #anchor must name a heading of its target, so the pages stay
// navigable as they are split, moved and extended.
package doclinks

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"
)

// Broken is one link that leads nowhere.
type Broken struct {
	File   string // the page, relative to the repository root
	Line   int
	Target string
	Reason string
}

func (b Broken) String() string {
	return fmt.Sprintf("%s:%d: %s: %s", b.File, b.Line, b.Target, b.Reason)
}

// Pages lists README.md and every .md file under docs/, relative to root.
func Pages(root string) ([]string, error) {
	pages := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			pages = append(pages, filepath.ToSlash(rel))
		}
		return nil
	})
	return pages, err
}

var linkPattern = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// Check returns every broken relative link of the pages.
func Check(root string, pages []string) ([]Broken, error) {
	anchors := map[string]map[string]bool{}
	var broken []Broken
	for _, page := range pages {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(page)))
		if err != nil {
			return nil, err
		}
		for n, line := range proseLines(string(data)) {
			if line == "" {
				continue
			}
			for _, m := range linkPattern.FindAllStringSubmatch(withoutCodeSpans(line), -1) {
				target := m[1]
				if reason := check(root, page, target, anchors); reason != "" {
					broken = append(broken, Broken{File: page, Line: n + 1, Target: target, Reason: reason})
				}
			}
		}
	}
	return broken, nil
}

func check(root, page, target string, anchors map[string]map[string]bool) string {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		return ""
	}
	path, anchor, _ := strings.Cut(target, "#")
	file := page
	if path != "" {
		file = filepath.ToSlash(filepath.Join(filepath.Dir(page), path))
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(file))); err != nil {
			return "no such file"
		}
	}
	if anchor == "" || !strings.HasSuffix(file, ".md") {
		return ""
	}
	known, ok := anchors[file]
	if !ok {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
		if err != nil {
			return "unreadable: " + err.Error()
		}
		known = Anchors(string(data))
		anchors[file] = known
	}
	if !known[anchor] {
		return "no heading with this anchor in " + file
	}
	return ""
}

// proseLines returns the page's lines with those inside fenced code blocks
// blanked, so examples are not taken for links or headings.
func proseLines(md string) []string {
	lines := strings.Split(md, "\n")
	fenced := false
	for i, line := range lines {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			lines[i] = ""
		} else if fenced {
			lines[i] = ""
		}
	}
	return lines
}

func withoutCodeSpans(line string) string {
	parts := strings.Split(line, "`")
	for i := 1; i < len(parts); i += 2 {
		parts[i] = ""
	}
	return strings.Join(parts, "`")
}

var headingPattern = regexp.MustCompile(`^#{1,6} (.+)$`)

// Anchors returns the anchors GitHub gives the page's headings: lower case,
// punctuation dropped, spaces turned into hyphens, repeats numbered.
func Anchors(md string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, line := range proseLines(md) {
		m := headingPattern.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		slug := Slug(m[1])
		if n := seen[slug]; n > 0 {
			out[fmt.Sprintf("%s-%d", slug, n)] = true
		} else {
			out[slug] = true
		}
		seen[slug]++
	}
	return out
}

// Slug turns heading text into its GitHub anchor.
func Slug(heading string) string {
	heading = linkPattern.ReplaceAllString(heading, "]") // [text](url) → text
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r), r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteRune('-')
		}
	}
	return b.String()
}
