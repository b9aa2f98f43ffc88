// Package agentconfig validates agent configurations and resolves the
// effective configuration of one agent object from its three sources:
// explicit creation fields > invocation overrides > workflow.yaml.
package agentconfig

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/stratoscli/stratos/shared/contract/agentapi"
	"github.com/stratoscli/stratos/shared/jsonvalidate"
	"github.com/stratoscli/stratos/stratos-agent/tools"
)

// SchemaJSON is the JSON Schema of one agent configuration. It is the one
// definition of the fields and their shapes: workflow.yaml entries,
// invocation overrides and createAgent fields are all checked against it.
//
//go:embed agent-config.schema.json
var SchemaJSON []byte

// Problem is one invalid field. Path is a dotted JSON path from the top of
// the checked document, e.g. agents.reviewer.model.
type Problem = agentapi.ConfigProblem

// Validator checks configurations against SchemaJSON one top-level field at
// a time, so that a problem says what shape its field must have (the
// field's description) and an unknown field is told with the known ones.
type Validator struct {
	fields map[string]field
	names  []string
	tools  *tools.Table
}

// field is one property of SchemaJSON, compiled.
type field struct {
	schema *jsonvalidate.Schema
	expect string // the shape the field must have, for messages
	// alternatives: the schema is an anyOf, whose branches' own
	// failures would mislead (each says what another branch wants), so a
	// mismatch is told for the field as a whole.
	alternatives bool
	// inner are the descriptions of the field's own properties that have
	// one (worktree.name): a problem there says that shape instead of the
	// validator's words for each rule it broke.
	inner map[string]string
}

// fieldSchema is what the Validator reads of a property of SchemaJSON
// besides compiling it.
type fieldSchema struct {
	Description string            `json:"description"`
	AnyOf       []json.RawMessage `json:"anyOf"`
	Properties  map[string]struct {
		Description string `json:"description"`
	} `json:"properties"`
}

// NewValidator compiles SchemaJSON for the registered harnesses: harness
// must be one of harnesses (the schema file's list is the built-in
// harnesses, for readers of the file), and tool names are checked
// against their table.
func NewValidator(harnesses []string, table *tools.Table) (*Validator, error) {
	var root struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(SchemaJSON, &root); err != nil {
		return nil, fmt.Errorf("agent configuration schema: %w", err)
	}
	if _, ok := root.Properties["harness"]; ok {
		h, err := harnessSchema(harnesses)
		if err != nil {
			return nil, fmt.Errorf("agent configuration schema, field harness: %w", err)
		}
		root.Properties["harness"] = h
	}
	v := &Validator{fields: make(map[string]field, len(root.Properties)), tools: table}
	for _, name := range slices.Sorted(maps.Keys(root.Properties)) {
		f, err := compileField(root.Properties[name])
		if err != nil {
			return nil, fmt.Errorf("agent configuration schema, field %s: %w", name, err)
		}
		v.fields[name] = f
		v.names = append(v.names, name)
	}
	return v, nil
}

// harnessSchema is the harness field's schema: one of the names.
func harnessSchema(names []string) (json.RawMessage, error) {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = strconv.Quote(n)
	}
	return json.Marshal(struct {
		Description string   `json:"description"`
		Enum        []string `json:"enum"`
	}{"one of " + strings.Join(quoted, ", "), append([]string{}, names...)})
}

func compileField(raw json.RawMessage) (field, error) {
	var fs fieldSchema
	if err := json.Unmarshal(raw, &fs); err != nil {
		return field{}, err
	}
	s, err := jsonvalidate.Compile(raw)
	if err != nil {
		return field{}, err
	}
	f := field{schema: s, expect: fs.Description, alternatives: len(fs.AnyOf) > 0}
	for name, p := range fs.Properties {
		if p.Description != "" {
			if f.inner == nil {
				f.inner = map[string]string{}
			}
			f.inner[name] = p.Description
		}
	}
	return f, nil
}

// Section checks workflow.yaml's agents section (as parsed YAML or JSON):
// an object whose keys are configuration IDs and whose values are agent
// configurations without configId.
func (v *Validator) Section(file string, section any) []Problem {
	norm, err := normalize(section)
	if err != nil {
		return []Problem{{File: file, Path: "agents", Message: err.Error()}}
	}
	m, ok := norm.(map[string]any)
	if !ok {
		return []Problem{{File: file, Path: "agents", Message: "must be a mapping from configuration IDs to agent configurations, got " + describe(norm)}}
	}
	var out []Problem
	for _, id := range slices.Sorted(maps.Keys(m)) {
		out = append(out, v.entry(file, "agents."+id, m[id], false)...)
	}
	return out
}

// Entry checks one agent configuration found at path in file (file may be
// empty, e.g. for createAgent fields). configID says whether configId is
// allowed (createAgent) or not (workflow.yaml, overrides).
func (v *Validator) Entry(file, path string, entry any, configID bool) []Problem {
	norm, err := normalize(entry)
	if err != nil {
		return []Problem{{File: file, Path: path, Message: err.Error()}}
	}
	return v.entry(file, path, norm, configID)
}

func (v *Validator) entry(file, path string, entry any, configID bool) []Problem {
	m, ok := entry.(map[string]any)
	if !ok {
		return []Problem{{File: file, Path: path, Message: "must be an agent configuration object, got " + describe(entry)}}
	}
	var out []Problem
	for _, name := range slices.Sorted(maps.Keys(m)) {
		f, known := v.fields[name]
		if !known || (name == "configId" && !configID) {
			out = append(out, Problem{File: file, Path: path + "." + name, Message: fmt.Sprintf("unknown field %q (known: %s)", name, v.known(configID))})
			continue
		}
		out = append(out, f.problems(file, path+"."+name, name, m[name])...)
	}
	return out
}

// problems checks the value of the field called name, found at path: one
// problem for the field itself, "must be <shape>, got <value> (<why>)",
// and one for each failing field inside it, at its own path.
func (f field) problems(file, path, name string, value any) []Problem {
	raw, err := json.Marshal(value)
	if err != nil {
		return []Problem{{File: file, Path: path, Message: fmt.Sprintf("not representable as JSON: %v", err)}}
	}
	issues := f.schema.Validate(raw)
	if len(issues) == 0 {
		return nil
	}
	whole := func(why string) Problem {
		return Problem{File: file, Path: path, Message: fmt.Sprintf("must be %s, got %s (%s)", f.expect, describe(value), why)}
	}
	if f.alternatives {
		return []Problem{whole("matches none of the accepted forms")}
	}
	var own []string
	var inside []Problem
	told := map[string]bool{} // inner properties told by their description
	for _, is := range issues {
		if is.Path == "" {
			own = append(own, is.Message)
			continue
		}
		if desc, ok := f.inner[is.Path]; ok {
			if !told[is.Path] {
				told[is.Path] = true
				got, _ := value.(map[string]any)
				inside = append(inside, Problem{File: file, Path: path + "." + is.Path, Message: fmt.Sprintf("must be %s, got %s", desc, describe(got[is.Path]))})
			}
			continue
		}
		inside = append(inside, Problem{File: file, Path: path + "." + is.Path, Message: fmt.Sprintf("%s; %s must be %s", is.Message, name, f.expect)})
	}
	if len(own) > 0 {
		return append([]Problem{whole(strings.Join(own, "; "))}, inside...)
	}
	return inside
}

func (v *Validator) known(configID bool) string {
	var names []string
	for _, n := range v.names {
		if n != "configId" || configID {
			names = append(names, n)
		}
	}
	return strings.Join(names, ", ")
}

// normalize turns parsed YAML or JSON into plain JSON values (maps with
// string keys, []any, float64, …), the form the schema validator expects.
func normalize(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("not representable as JSON (mapping keys must be strings): %v", err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// describe shows a value briefly in a message.
func describe(v any) string {
	if v == nil {
		return "null"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	s := string(b)
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}
