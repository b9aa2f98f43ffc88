// Package manifest parses and validates workflow.yaml.
//
// Discovery, build, describe, schema and run all validate manifests through
// this one package so that a workflow is valid or invalid everywhere alike.
// Validation is metadata only: it never looks at the TypeScript code.
package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/stratoscli/stratos/shared/boundedread"
	"github.com/stratoscli/stratos/shared/yamlline"
)

// FileName is the manifest's file name inside a workflow directory.
const FileName = "workflow.yaml"

// DefaultEntrypoint is used when the manifest names none.
const DefaultEntrypoint = "workflow.ts"

// Limits of the workflow.yaml fields (docs/workflows.md), in Unicode code
// points.
const (
	MaxNameLength             = 64
	MaxShortDescriptionLength = 200
	MaxLongDescriptionLength  = 8000
)

// MaxFileBytes bounds workflow.yaml (docs/files.md): its descriptions are
// a few kilobytes at most, and agent configurations with inline test
// scripts stay far below 4 MiB. Every command that discovers workflows
// reads every manifest, so a large one would cost every command.
const MaxFileBytes = 4 << 20

// Problem codes. They are part of the JSON contract of `stratos list`.
const (
	CodeUnreadable    = "manifest_unreadable"
	CodeTooLarge      = "manifest_too_large"
	CodeInvalidYAML   = "manifest_invalid_yaml"
	CodeRequired      = "field_required"
	CodeType          = "field_type"
	CodeBlank         = "field_blank"
	CodeTooLong       = "field_too_long"
	CodeMultiline     = "field_multiline"
	CodeNameInvalid   = "name_invalid"
	CodeEntrypoint    = "entrypoint_invalid"
	CodeUnknownField  = "unknown_field"
	CodeDuplicateName = "duplicate_name"
)

// Compiled on first use rather than at start, which every process that
// links the package would pay whether it uses it or not.
var namePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9-]{0,63}$`) })

// RuntimeSections are top-level keys whose content only matters when a
// workflow runs. Their owners validate them; the freshness key ignores them
// so that, say, changing an agent's model never forces a rebuild.
var RuntimeSections = []string{"agents", "budget"}

// ownedSections are accepted here and validated by the tools that own them.
var ownedSections = map[string]bool{"agents": true, "mcp": true, "decision": true, "budget": true}

// Manifest is a validated workflow.yaml.
type Manifest struct {
	Name             string `json:"name"`
	ShortDescription string `json:"shortDescription"`
	LongDescription  string `json:"longDescription"`
	Entrypoint       string `json:"entrypoint"`
	// Sections holds the owned sections (agents, mcp, decision, budget) as parsed
	// YAML values, for their owners to validate.
	Sections map[string]any `json:"sections,omitempty"`
}

// Problem is one validation failure. Actual and Max are set for length
// errors (in code points) and for a manifest too large to read (in bytes).
type Problem struct {
	Dir      string `json:"dir"`
	Manifest string `json:"manifest"`
	Field    string `json:"field,omitempty"`
	Code     string `json:"code"`
	Message  string `json:"message"`
	Actual   *int   `json:"actual,omitempty"`
	Max      *int   `json:"max,omitempty"`
}

// Load reads and validates dir/workflow.yaml. A non-empty problem list means
// the manifest is invalid; the returned Manifest then holds whatever could be
// read (a name, if valid, is still useful for duplicate detection). Only a
// regular file of at most MaxFileBytes is read: discovery has no context
// to end a read that blocks (a FIFO) or never ends (a device).
func Load(dir string) (Manifest, []Problem) {
	file := filepath.Join(dir, FileName)
	data, err := boundedread.RegularFile(file, MaxFileBytes)
	if err != nil {
		return Manifest{}, []Problem{unreadable(dir, file, err)}
	}
	return Parse(dir, file, data)
}

// unreadable is the problem of a manifest that could not be read.
func unreadable(dir, file string, err error) Problem {
	var tooLarge *boundedread.TooLargeError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Problem{Dir: dir, Manifest: file, Code: CodeUnreadable, Message: fmt.Sprintf("%s: missing", file)}
	case errors.As(err, &tooLarge):
		limit := int(tooLarge.Limit)
		p := Problem{Dir: dir, Manifest: file, Code: CodeTooLarge, Message: fmt.Sprintf("%s is %v", file, tooLarge), Max: &limit}
		if tooLarge.Size > 0 {
			size := int(tooLarge.Size)
			p.Actual = &size
		}
		return p
	}
	return Problem{Dir: dir, Manifest: file, Code: CodeUnreadable, Message: fmt.Sprintf("%s: cannot read: %v", file, err)}
}

// Parse validates data as the manifest file of workflow directory dir.
func Parse(dir, file string, data []byte) (Manifest, []Problem) {
	v := validator{dir: dir, file: file}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			// yaml.v3 says only "EOF" of a file with no document in it.
			v.add("", CodeInvalidYAML, "%s: is empty (it must be a YAML mapping with name, shortDescription and longDescription)", file)
			return Manifest{}, v.problems
		}
		v.add("", CodeInvalidYAML, "%s: invalid YAML: %v", file, yamlline.Correct(err))
		return Manifest{}, v.problems
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		v.add("", CodeInvalidYAML, "%s: must be a YAML mapping with name, shortDescription and longDescription", file)
		return Manifest{}, v.problems
	}
	m := v.fields(doc.Content[0])
	return m, v.problems
}

type validator struct {
	dir, file string
	problems  []Problem
}

func (v *validator) add(field, code, format string, args ...any) *Problem {
	v.problems = append(v.problems, Problem{Dir: v.dir, Manifest: v.file, Field: field, Code: code, Message: fmt.Sprintf(format, args...)})
	return &v.problems[len(v.problems)-1]
}

func (v *validator) fields(root *yaml.Node) Manifest {
	var m Manifest
	seen := map[string]*yaml.Node{}
	lines := map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, val := root.Content[i].Value, root.Content[i+1]
		// A key given twice is invalid YAML, which yaml.v3 does not check
		// when it decodes into a node: the later value would silently win
		// (name: a, then name: b further down, builds as b).
		// Neither value is taken: the field is left empty, like any field
		// with a problem.
		if first, dup := lines[key]; dup {
			if seen[key] != nil {
				v.add(key, CodeInvalidYAML, "%s: invalid YAML: line %d: field %q is given twice (first on line %d)", v.file, root.Content[i].Line, key, first)
				seen[key] = nil
				delete(m.Sections, key)
			}
			continue
		}
		lines[key] = root.Content[i].Line
		seen[key] = val
		switch {
		case key == "name" || key == "shortDescription" || key == "longDescription" || key == "entrypoint":
		case ownedSections[key]:
			var section any
			if err := val.Decode(&section); err != nil {
				v.add(key, CodeType, "%s: field %q: %v", v.file, key, err)
				continue
			}
			if m.Sections == nil {
				m.Sections = map[string]any{}
			}
			m.Sections[key] = section
		default:
			v.add(key, CodeUnknownField, "%s: unknown field %q (known: name, shortDescription, longDescription, entrypoint, agents, mcp, decision, budget)", v.file, key)
		}
	}
	if s, ok := v.str(seen, "name", true); ok {
		if namePattern().MatchString(s) {
			m.Name = s
		} else {
			v.add("name", CodeNameInvalid, "%s: field \"name\": %q must match ^[a-z][a-z0-9-]{0,63}$ (lowercase letter first, then lowercase letters, digits or '-', at most %d characters)", v.file, s, MaxNameLength)
		}
	}
	if s, ok := v.str(seen, "shortDescription", true); ok {
		if v.description("shortDescription", s, MaxShortDescriptionLength) {
			if strings.ContainsAny(s, "\r\n\u2028\u2029") {
				v.add("shortDescription", CodeMultiline, "%s: field \"shortDescription\" must be one paragraph without line breaks", v.file)
			} else {
				m.ShortDescription = s
			}
		}
	}
	if s, ok := v.str(seen, "longDescription", true); ok {
		if v.description("longDescription", s, MaxLongDescriptionLength) {
			m.LongDescription = s
		}
	}
	m.Entrypoint = DefaultEntrypoint
	if s, ok := v.str(seen, "entrypoint", false); ok {
		if msg := entrypointProblem(s); msg != "" {
			v.add("entrypoint", CodeEntrypoint, "%s: field \"entrypoint\": %q %s", v.file, s, msg)
		} else {
			m.Entrypoint = path.Clean(s)
		}
	}
	return m
}

// str returns the string value of a scalar field. ok is false when the field
// is absent or not a string; a problem is recorded where that is an error.
func (v *validator) str(seen map[string]*yaml.Node, field string, required bool) (string, bool) {
	n, present := seen[field]
	if present && n == nil { // given twice, already a problem
		return "", false
	}
	if !present || (n.Kind == yaml.ScalarNode && n.Tag == "!!null") {
		if required {
			v.add(field, CodeRequired, "%s: field %q is required", v.file, field)
		}
		return "", false
	}
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
		v.add(field, CodeType, "%s: field %q must be a string (line %d)", v.file, field, n.Line)
		return "", false
	}
	return n.Value, true
}

// description checks a description's blankness and code-point length.
func (v *validator) description(field, s string, max int) bool {
	if strings.TrimSpace(s) == "" {
		v.add(field, CodeBlank, "%s: field %q must not be blank", v.file, field)
		return false
	}
	if n := utf8.RuneCountInString(s); n > max {
		p := v.add(field, CodeTooLong, "%s: field %q is %d code points long; the maximum is %d", v.file, field, n, max)
		p.Actual, p.Max = &n, &max
		return false
	}
	return true
}

func entrypointProblem(s string) string {
	switch {
	case s == "":
		return "must not be empty"
	case !strings.HasSuffix(s, ".ts") || strings.HasSuffix(s, ".d.ts"):
		return "must name a .ts file"
	case strings.Contains(s, "\\"):
		return "must use '/' as path separator"
	case path.IsAbs(s):
		return "must be a path relative to the workflow directory"
	}
	c := path.Clean(s)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "must stay inside the workflow directory"
	}
	top := strings.SplitN(c, "/", 2)[0]
	if top == "dist" || top == "generated" || top == "node_modules" {
		return "must not point into dist/, generated/ or node_modules/"
	}
	return ""
}
