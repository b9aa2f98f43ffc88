package testcases

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"

	"gopkg.in/yaml.v3"

	"github.com/stratoscli/stratos/shared/boundedread"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/shared/yamlline"
)

// fileFields are the fields of a case file, for its error messages.
const fileFields = "a case file has defaults: {input, overrides, scripts, budget, allowRealHarness, decisions} and cases: [{name, input, overrides, scripts, budget, allowRealHarness, decisions, expect}]"

// Load reads every tests/*.yaml of the workflow in dir, in file name order.
// A workflow without them has no cases. Errors name the file and the line,
// and the case when there is one.
func Load(dir string) ([]Case, error) {
	paths, err := filepath.Glob(filepath.Join(dir, Dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var out []Case
	seen := map[string]string{}
	for _, p := range paths {
		rel, _ := filepath.Rel(dir, p)
		cases, err := loadFile(p, rel)
		if err != nil {
			return nil, err
		}
		for _, c := range cases {
			if other, dup := seen[c.Name]; dup {
				return nil, &Error{c.Problem("the name is also a case's in %s", other)}
			}
			seen[c.Name] = rel
			out = append(out, c)
		}
	}
	return out, nil
}

// Misnamed are the files of the workflow in dir that sit where case files
// do but are not read as ones, since they end in .yml (tests/*.yml): their
// cases would never run, and a suite that passes would not say so.
func Misnamed(dir string) []string {
	paths, _ := filepath.Glob(filepath.Join(dir, Dir, "*.yml"))
	sort.Strings(paths)
	for i, p := range paths {
		paths[i], _ = filepath.Rel(dir, p)
	}
	return paths
}

// loadFile reads one case file; rel is its name in messages.
func loadFile(path, rel string) ([]Case, error) {
	b, err := boundedread.RegularFile(path, MaxFileBytes)
	if err != nil {
		return nil, fileError(rel, 0, "%v", err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fileError(rel, 0, "%v", yamlline.Correct(err))
	}
	top := content(&doc)
	if top == nil || top.Kind != yaml.MappingNode {
		return nil, fileError(rel, 0, "no cases (%s)", fileFields)
	}
	var list *yaml.Node
	var defaults *Defaults
	for i := 0; i+1 < len(top.Content); i += 2 {
		key, value := top.Content[i], top.Content[i+1]
		switch key.Value {
		case "cases":
			list = value
		case "defaults":
			if defaults, err = decodeDefaults(value); err != nil {
				line := lineOf(err)
				if line == 0 {
					line = value.Line
				}
				return nil, fileError(rel, line, "defaults: %v", err)
			}
		default:
			return nil, fileError(rel, key.Line, "unknown field %q (%s; harness scripts belong in %s/scripts/)", key.Value, fileFields, Dir)
		}
	}
	if list == nil || list.Kind != yaml.SequenceNode || len(list.Content) == 0 {
		return nil, fileError(rel, 0, "no cases (%s)", fileFields)
	}
	out := make([]Case, 0, len(list.Content))
	for i, n := range list.Content {
		c, err := decodeCase(n)
		c.File, c.Line = rel, n.Line
		if err != nil {
			p := c.Problem("cases[%d]: %v", i, err)
			if line := lineOf(err); line > 0 {
				p.Line = line
			}
			return nil, &Error{p}
		}
		defaults.apply(&c, n)
		out = append(out, c)
	}
	return out, nil
}

// decodeCase decodes one case strictly; the case's name is set when the
// node has one, even when decoding fails, so that the error can name it.
func decodeCase(n *yaml.Node) (Case, error) {
	var c Case
	if n.Kind != yaml.MappingNode {
		return c, fmt.Errorf("a case is a mapping {name, input, overrides, scripts, budget, allowRealHarness, expect}")
	}
	c.Name = field(n, "name").Value
	if err := decodeStrict(n, &c); err != nil {
		return c, err
	}
	if c.Name == "" {
		return c, fmt.Errorf("name is required")
	}
	if err := c.Budget.check(); err != nil {
		return c, err
	}
	if err := c.Expect.check(); err != nil {
		return c, err
	}
	c.scriptLines = keyLines(field(n, "scripts"))
	c.decisionsLine = keyLines(n)["decisions"]
	return c, nil
}

// decodeStrict decodes a node into v as JSON, refusing unknown fields.
func decodeStrict(n *yaml.Node, v any) error {
	raw, err := nodeJSON(n)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return explain(err, n, raw, v)
	}
	return nil
}

// keyLines are the lines of a mapping's keys.
func keyLines(m *yaml.Node) map[string]int {
	if m.Kind != yaml.MappingNode {
		return nil
	}
	lines := map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		lines[m.Content[i].Value] = m.Content[i].Line
	}
	return lines
}

// content is the node a document holds (nil for an empty one).
func content(doc *yaml.Node) *yaml.Node {
	if doc.Kind == yaml.DocumentNode {
		if len(doc.Content) == 0 {
			return nil
		}
		return doc.Content[0]
	}
	return doc
}

// field is the value of a mapping's key, an empty node when absent.
func field(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return &yaml.Node{}
}

// nodeJSON is a node as JSON; decoding resolves aliases and merge keys.
func nodeJSON(n *yaml.Node) (json.RawMessage, error) {
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

func fileError(rel string, line int, format string, args ...any) *Error {
	return &Error{runapi.TestCaseProblem{File: rel, Line: line, Message: fmt.Sprintf(format, args...)}}
}

// yamlToJSON reads a YAML (or JSON) file as JSON: a regular file (a FIFO
// would block `stratos test` where nothing could end the read) of at most
// MaxFileBytes.
func yamlToJSON(path string) (json.RawMessage, error) {
	b, err := boundedread.RegularFile(path, MaxFileBytes)
	if err != nil {
		return nil, err
	}
	var doc any
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, yamlline.Correct(err)
	}
	return json.Marshal(doc)
}
