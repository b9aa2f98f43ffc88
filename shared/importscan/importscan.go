// Package importscan finds module specifiers in TypeScript source without
// executing or compiling it. Freshness (which child workflows does a workflow
// reference?) and the build's preparation order (which children must be built
// first, are there cycles?) both depend on it, so it lives in shared.
//
// The scanner is a small lexer, not a parser: it skips comments, string and
// template literals, and reports the string literal that follows `from`,
// `import`, `import(`, `export … from` and `require(`. That is enough for the
// static `import x from "../.generated/<name>.js"` form that generated
// child-workflow wrappers are used through.
package importscan

import (
	"path"
	"regexp"
	"strings"
	"sync"
)

// Specifiers returns the module specifiers imported by src, in order.
func Specifiers(src string) []string {
	var specs []string
	var prev1, prev2 string // the last two significant tokens
	i, n := 0, len(src)
	for i < n {
		c := src[i]
		switch {
		case c == '/' && i+1 < n && src[i+1] == '/':
			for i < n && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < n && src[i+1] == '*':
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return specs
			}
			i += end + 4
		case c == '"' || c == '\'':
			s, next := readString(src, i)
			if prev1 == "from" || prev1 == "import" || (prev1 == "(" && (prev2 == "import" || prev2 == "require")) {
				specs = append(specs, s)
			}
			prev2, prev1 = prev1, "<str>"
			i = next
		case c == '`':
			i = skipTemplate(src, i)
			prev2, prev1 = prev1, "<str>"
		case isIdentStart(c):
			j := i
			for j < n && isIdentPart(src[j]) {
				j++
			}
			// A property access like `x.import` or `obj.from` is not a keyword.
			word := src[i:j]
			if prev1 == "." {
				word = "<ident>"
			}
			prev2, prev1 = prev1, word
			i = j
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		default:
			prev2, prev1 = prev1, string(c)
			i++
		}
	}
	return specs
}

// readString reads a quoted literal starting at src[i] and returns its value
// and the index after the closing quote. Escapes are kept as written (module
// paths have none worth decoding), so the value is a substring of src and
// scanning allocates nothing per literal.
func readString(src string, i int) (string, int) {
	q := src[i]
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case q, '\n':
			return src[i+1 : j], j + 1
		}
	}
	return src[i+1:], len(src)
}

// skipTemplate skips a template literal, including ${…} substitutions that
// may themselves contain strings, templates and braces.
func skipTemplate(src string, i int) int {
	j := i + 1
	for j < len(src) {
		switch src[j] {
		case '\\':
			j += 2
			continue
		case '`':
			return j + 1
		case '$':
			if j+1 < len(src) && src[j+1] == '{' {
				j = skipBraces(src, j+1)
				continue
			}
		}
		j++
	}
	return j
}

func skipBraces(src string, i int) int {
	depth := 0
	j := i
	for j < len(src) {
		switch c := src[j]; c {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return j + 1
			}
		case '"', '\'':
			_, j = readString(src, j)
			continue
		case '`':
			j = skipTemplate(src, j)
			continue
		}
		j++
	}
	return j
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }

// GeneratedDir is the root-level directory of child-workflow wrappers.
const GeneratedDir = ".generated"

// Compiled on first use rather than at start, which every process that
// links the package would pay whether it uses it or not.
var wrapperFile = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([a-z][a-z0-9-]{0,63})\.js$`) })

// WorkflowReference returns the child workflow named by spec when spec,
// imported from a file at fileRel (a slash path relative to the discovery
// root, e.g. "review/lib/x.ts"), resolves to <root>/.generated/<name>.js.
func WorkflowReference(fileRel, spec string) (string, bool) {
	if !IsRelative(spec) {
		return "", false
	}
	target := path.Join(path.Dir(fileRel), spec)
	dir, file := path.Split(target)
	if dir != GeneratedDir+"/" {
		return "", false
	}
	m := wrapperFile().FindStringSubmatch(file)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// IsRelative reports whether spec is a relative module specifier ("./x.js",
// "../lib/y.js"): the only kind that names an authored source file rather
// than an installed package.
func IsRelative(spec string) bool {
	return strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../")
}

// SourceCandidates returns the files tsc would read for an import of target
// (a relative specifier already joined to the importing file's directory),
// most preferred first. Under NodeNext an import names the compiled file, so
// "x.js" is compiled from x.ts (or typed by x.d.ts); an extensionless
// specifier (CommonJS packages only) may also name a directory's index.
func SourceCandidates(target string) []string {
	ext := path.Ext(target)
	base := strings.TrimSuffix(target, ext)
	switch ext {
	case ".js":
		return []string{base + ".ts", base + ".tsx", base + ".d.ts"}
	case ".mjs":
		return []string{base + ".mts", base + ".d.mts"}
	case ".cjs":
		return []string{base + ".cts", base + ".d.cts"}
	case ".ts", ".mts", ".cts", ".tsx", ".json":
		return []string{target}
	}
	return []string{target + ".ts", target + ".tsx", target + ".d.ts", target + "/index.ts", target + "/index.d.ts"}
}
