// Package jsonvalidate validates JSON values against JSON Schemas (draft
// 2020-12 and draft-07, what Zod emits) and reports every failing field, not
// only the first: each issue has the field's dotted path (the form the SDK's
// Zod issues use) and a message, sorted by path so the same mismatch is
// always reported the same way.
//
// It is Stratos's one JSON Schema validator, over santhosh-tekuri/jsonschema.
// That library compiles the meta-schemas of every draft it knows in its
// package initialization (a few milliseconds of CPU, docs/performance.md),
// in every process that links this package, so only the processes that
// validate import it: the agent host, and stratos-run-validate, which
// validates for stratos run (package remote) so that a run does not pay for
// the library's start-up before its workflow starts.
package jsonvalidate

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/stratoscli/stratos/shared/jsonvalidate/verdict"
)

// Issue is one failing field.
type Issue = verdict.Issue

// Schema is a compiled JSON Schema.
type Schema struct {
	schema *jsonschema.Schema
	unions map[string]discriminator // union.go
}

// schemaURL names the one schema of a compiler; its own $id, if any, wins.
const schemaURL = "stratos:///schema.json"

// errNoLoading refuses a $ref or $schema naming a document other than the
// schema itself and the drafts' meta-schemas. The library's default loader
// reads any file:// URL; a schema comes from a workflow or a harness's
// reply and may not make Stratos read files.
var errNoLoading = errors.New("a schema may refer only to itself and the JSON Schema drafts' meta-schemas")

type refuseLoading struct{}

func (refuseLoading) Load(string) (any, error) { return nil, errNoLoading }

// Compile compiles a JSON Schema document.
func Compile(raw json.RawMessage) (*Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("the schema is not JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(refuseLoading{})
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, err
	}
	s, err := c.Compile(schemaURL)
	if err != nil {
		return nil, readable(err)
	}
	return &Schema{schema: s, unions: discriminators(s)}, nil
}

// readable is a compilation error with a breach of the meta-schema told as
// issues, field by field, in one line (the library's own message is a
// multi-line tree of schema locations).
func readable(err error) error {
	var se *jsonschema.SchemaValidationError
	var ve *jsonschema.ValidationError
	if !errors.As(err, &se) || !errors.As(se.Err, &ve) {
		return err
	}
	doc := "the schema"
	if se.URL != schemaURL+"#" {
		doc = "the schema's resource " + strings.TrimSuffix(se.URL, "#")
	}
	return fmt.Errorf("%s is not a valid JSON Schema: %s", doc, Text(issuesOf(ve, nil)))
}

// Validate checks the JSON document value and returns every issue, sorted
// by path then message; nil when it matches. A document that is not JSON
// is one issue at "".
func (s *Schema) Validate(value json.RawMessage) []Issue {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(value))
	if err != nil {
		return []Issue{{Path: "", Message: "not valid JSON: " + err.Error()}}
	}
	err = s.schema.Validate(inst)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Issue{{Path: "", Message: err.Error()}}
	}
	return issuesOf(ve, s.unions)
}

// issuesOf is the tree of a validation error as sorted issues.
func issuesOf(ve *jsonschema.ValidationError, unions map[string]discriminator) []Issue {
	r := &reporter{printer: message.NewPrinter(language.English), unions: unions}
	issues := r.leaves(ve, nil)
	slices.SortFunc(issues, compareIssues)
	return slices.Compact(issues)
}

// leaves collects the innermost errors of the tree: the ones that say what
// is wrong, where. A missing required field or an unknown one becomes an
// issue at that field's own path; a discriminated union reports only the
// branches its value selects (union.go).
func (r *reporter) leaves(ve *jsonschema.ValidationError, out []Issue) []Issue {
	if d, ok := r.unions[ve.SchemaURL]; ok && isUnionFailure(ve.ErrorKind) {
		if reported, ok := r.unionLeaves(ve, d, out); ok {
			return reported
		}
	}
	if len(ve.Causes) > 0 {
		for _, c := range ve.Causes {
			out = r.leaves(c, out)
		}
		return out
	}
	at := ve.InstanceLocation
	switch k := ve.ErrorKind.(type) {
	case *kind.Required:
		for _, name := range k.Missing {
			out = append(out, Issue{Path: dotted(append(slices.Clone(at), name)), Message: "required field is missing"})
		}
		return out
	case *kind.AdditionalProperties:
		for _, name := range k.Properties {
			out = append(out, Issue{Path: dotted(append(slices.Clone(at), name)), Message: "unknown field (not in the schema)"})
		}
		return out
	}
	return append(out, Issue{Path: dotted(at), Message: ve.ErrorKind.LocalizedString(r.printer)})
}

// isUnionFailure reports whether an error is a union that no branch matched
// (not a oneOf that two branches matched).
func isUnionFailure(k jsonschema.ErrorKind) bool {
	switch k := k.(type) {
	case *kind.AnyOf:
		return true
	case *kind.OneOf:
		return k.Subschemas == nil
	}
	return false
}

func dotted(tokens []string) string { return strings.Join(tokens, ".") }

// compareIssues orders by path, segment by segment (array indexes as
// numbers, so "a.2" comes before "a.10"), then by message.
func compareIssues(a, b Issue) int {
	as, bs := strings.Split(a.Path, "."), strings.Split(b.Path, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		if c := compareSegment(as[i], bs[i]); c != 0 {
			return c
		}
	}
	return cmp.Or(cmp.Compare(len(as), len(bs)), strings.Compare(a.Message, b.Message))
}

func compareSegment(a, b string) int {
	na, errA := strconv.Atoi(a)
	nb, errB := strconv.Atoi(b)
	if errA == nil && errB == nil {
		return cmp.Compare(na, nb)
	}
	return strings.Compare(a, b)
}

// Text is the issues for people: `field "a.b": message; …`, at most the first
// five, then how many more.
func Text(issues []Issue) string { return verdict.Text(issues) }
