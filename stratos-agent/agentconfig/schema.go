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
	"sort"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stratoscli/stratos/shared/contract/agentapi"
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

// Validator checks configurations against SchemaJSON, one field at a time,
// so that every problem names the field it is about (jsonschema-go reports
// schema locations, not instance paths).
type Validator struct {
	fields map[string]*jsonschema.Resolved
	expect map[string]string // field → the shape it must have, for messages
	names  []string
	tools  *tools.Table
}

// NewValidator compiles SchemaJSON for the registered harnesses: harness
// must be one of harnesses (the schema file's list is the built-in
// harnesses, for readers of the file), and tool names are checked
// against their table.
func NewValidator(harnesses []string, table *tools.Table) (*Validator, error) {
	var root jsonschema.Schema
	if err := json.Unmarshal(SchemaJSON, &root); err != nil {
		return nil, fmt.Errorf("agent configuration schema: %w", err)
	}
	if h := root.Properties["harness"]; h != nil {
		h.Enum = make([]any, len(harnesses))
		quoted := make([]string, len(harnesses))
		for i, n := range harnesses {
			h.Enum[i], quoted[i] = n, strconv.Quote(n)
		}
		h.Description = "one of " + strings.Join(quoted, ", ")
	}
	v := &Validator{fields: map[string]*jsonschema.Resolved{}, expect: map[string]string{}, tools: table}
	for name, s := range root.Properties {
		r, err := s.Resolve(nil)
		if err != nil {
			return nil, fmt.Errorf("agent configuration schema, field %s: %w", name, err)
		}
		v.fields[name] = r
		v.expect[name] = s.Description
		v.names = append(v.names, name)
	}
	sort.Strings(v.names)
	return v, nil
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
	for _, field := range slices.Sorted(maps.Keys(m)) {
		r, known := v.fields[field]
		if !known || (field == "configId" && !configID) {
			out = append(out, Problem{File: file, Path: path + "." + field, Message: fmt.Sprintf("unknown field %q (known: %s)", field, v.known(configID))})
			continue
		}
		if err := r.Validate(m[field]); err != nil {
			out = append(out, Problem{File: file, Path: path + "." + field,
				Message: fmt.Sprintf("must be %s, got %s (%s)", v.expect[field], describe(m[field]), innermost(err))})
		}
	}
	return out
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

// ValidationMessage is a jsonschema-go validation error without its
// "validating <schema>: " prefixes, which name schema internals rather than
// the value at fault. The host uses it for outputSchema mismatches too.
func ValidationMessage(err error) string {
	msg := err.Error()
	for strings.HasPrefix(msg, "validating ") {
		i := strings.Index(msg, ": ")
		if i < 0 {
			break
		}
		msg = msg[i+2:]
	}
	return msg
}

// innermost is ValidationMessage with an unreadable anyOf summary replaced.
func innermost(err error) string {
	msg := ValidationMessage(err)
	if strings.HasPrefix(msg, "anyOf:") {
		return "matches none of the accepted forms"
	}
	return msg
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
