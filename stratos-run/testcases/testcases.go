// Package testcases reads a workflow's test cases (<workflow>/tests/*.yaml)
// and judges a run against a case's expectations. Running the cases is the
// command's job; this package knows the file format and the matching rules
// (docs/testing.md).
package testcases

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"

	"gopkg.in/yaml.v3"

	"github.com/stratoscli/stratos/shared/boundedread"
)

// MaxFileBytes bounds a case file and each file a case names (overrides,
// scripts): a case holds a run's input, which --input allows up to 16 MiB
// (docs/files.md).
const MaxFileBytes = 16 << 20

// Dir is the directory of a workflow's test case files; harness scripts the
// cases use belong in a subdirectory (tests/scripts/), which is not read as
// cases.
const Dir = "tests"

// File is one tests/*.yaml file.
type File struct {
	Cases []Case `json:"cases"`
}

// Case is one test case: a full run of the workflow.
type Case struct {
	Name string `json:"name"`
	// Input is the workflow's input ({} when absent).
	Input json.RawMessage `json:"input,omitempty"`
	// Overrides are invocation overrides, inline or {"file": path} (YAML
	// or JSON, relative to the workflow directory).
	Overrides json.RawMessage `json:"overrides,omitempty"`
	// Scripts puts agent configurations (configId or configId#label) on the
	// test harness with these scripts (inline, or {"file": path} relative
	// to the workflow directory).
	Scripts map[string]json.RawMessage `json:"scripts,omitempty"`
	Expect  Expect                     `json:"expect"`

	// File is the case file, relative to the workflow directory.
	File string `json:"-"`
}

// Expect is what a case must observe; absent fields are not checked. A case
// without error expects the run to succeed.
type Expect struct {
	// Output must equal the workflow's output exactly.
	Output json.RawMessage `json:"output,omitempty"`
	// OutputIncludes must be included in the output: objects by the fields
	// given, arrays element by element (same length), values by equality.
	OutputIncludes json.RawMessage `json:"outputIncludes,omitempty"`
	// Error is the code the run must fail with (the error's own, or one of
	// its causes').
	Error string `json:"error,omitempty"`
	// Calls are the agent executes per configId, or per configId#label,
	// across the run (child workflows included).
	Calls map[string]int `json:"calls,omitempty"`
}

// Load reads every tests/*.yaml of the workflow in dir, in file name order.
// A workflow without them has no cases.
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
		f, err := loadFile(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", rel, err)
		}
		for i, c := range f.Cases {
			if c.Name == "" {
				return nil, fmt.Errorf("%s: cases[%d]: name is required", rel, i)
			}
			if other, dup := seen[c.Name]; dup {
				return nil, fmt.Errorf("%s: case %q is also in %s", rel, c.Name, other)
			}
			seen[c.Name] = rel
			c.File = rel
			out = append(out, c)
		}
	}
	return out, nil
}

func loadFile(path string) (*File, error) {
	raw, err := yamlToJSON(path)
	if err != nil {
		return nil, err
	}
	var f File
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%v (a case file has cases: [{name, input, overrides, scripts, expect}]; harness scripts belong in %s/scripts/)", err, Dir)
	}
	if len(f.Cases) == 0 {
		return nil, fmt.Errorf("no cases")
	}
	return &f, nil
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
		return nil, err
	}
	return json.Marshal(doc)
}

// RunOverrides is the --overrides document of the case's run: its
// overrides with each script's configuration switched to the test harness.
// Files are read here, relative to the workflow directory dir, so that a
// script inherited by a child workflow means the same file.
func (c Case) RunOverrides(dir string) (json.RawMessage, error) {
	doc := map[string]any{}
	if len(c.Overrides) > 0 {
		raw, err := inlineOrFile(c.Overrides, dir)
		if err != nil {
			return nil, fmt.Errorf("overrides: %w", err)
		}
		if err := json.Unmarshal(raw, &doc); err != nil || doc == nil {
			return nil, fmt.Errorf("overrides: must be an object with agents and decision")
		}
	}
	if len(c.Scripts) == 0 {
		return json.Marshal(doc)
	}
	agents, _ := doc["agents"].(map[string]any)
	if agents == nil {
		agents = map[string]any{}
	}
	for _, target := range slices.Sorted(maps.Keys(c.Scripts)) {
		script, err := inlineOrFile(c.Scripts[target], dir)
		if err != nil {
			return nil, fmt.Errorf("scripts.%s: %w", target, err)
		}
		entry, _ := agents[target].(map[string]any)
		if entry == nil {
			entry = map[string]any{}
		}
		entry["harness"], entry["test"] = "test", script
		agents[target] = entry
	}
	doc["agents"] = agents
	return json.Marshal(doc)
}

// inlineOrFile returns raw, or the content of the file {"file": path} names.
func inlineOrFile(raw json.RawMessage, dir string) (json.RawMessage, error) {
	var ref map[string]any
	if json.Unmarshal(raw, &ref) != nil || len(ref) != 1 {
		return raw, nil
	}
	path, ok := ref["file"].(string)
	if !ok {
		return raw, nil
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	return yamlToJSON(path)
}
