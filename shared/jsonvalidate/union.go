package jsonvalidate

import (
	"encoding/json"
	"slices"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/message"
)

// A value that matches no branch of a union fails every branch, and the
// validator reports every branch's failures: for a discriminated union
// (z.discriminatedUnion) that told someone who returned {"status":"done"}
// that "reason" was missing and that status must be "failed", from the
// branches the value never meant. With a discriminator known, only the
// branches it selects are reported, or, when it selects none, the
// discriminator alone.

// discriminator is the field that tells a union's branches apart: every
// branch requires it with literal values (const or enum), and no value is
// in two branches.
type discriminator struct {
	field  string
	values []any // every branch's values, in branch order
}

// discriminators maps the location of each union (anyOf or oneOf) reachable
// from root that has a discriminator to it.
func discriminators(root *jsonschema.Schema) map[string]discriminator {
	found := map[string]discriminator{}
	seen := map[*jsonschema.Schema]bool{}
	var visit func(s *jsonschema.Schema)
	visit = func(s *jsonschema.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		for _, branches := range [][]*jsonschema.Schema{s.AnyOf, s.OneOf} {
			if d, ok := discriminatorOf(branches); ok {
				found[s.Location] = d
			}
		}
		for _, sub := range subschemas(s) {
			visit(sub)
		}
	}
	visit(root)
	return found
}

// subschemas lists the schemas s applies to its value or parts of it.
func subschemas(s *jsonschema.Schema) []*jsonschema.Schema {
	subs := []*jsonschema.Schema{s.Ref, s.Not, s.If, s.Then, s.Else, s.PropertyNames, s.Items2020, s.Contains,
		s.UnevaluatedProperties, s.UnevaluatedItems, s.ContentSchema}
	subs = append(subs, s.AllOf...)
	subs = append(subs, s.AnyOf...)
	subs = append(subs, s.OneOf...)
	subs = append(subs, s.PrefixItems...)
	for _, m := range []map[string]*jsonschema.Schema{s.Properties, s.DependentSchemas} {
		for _, sub := range m {
			subs = append(subs, sub)
		}
	}
	for _, sub := range s.PatternProperties {
		subs = append(subs, sub)
	}
	for _, v := range []any{s.AdditionalProperties, s.Items, s.AdditionalItems} {
		switch v := v.(type) {
		case *jsonschema.Schema:
			subs = append(subs, v)
		case []*jsonschema.Schema:
			subs = append(subs, v...)
		}
	}
	return subs
}

func discriminatorOf(branches []*jsonschema.Schema) (discriminator, bool) {
	if len(branches) < 2 {
		return discriminator{}, false
	}
	objs := make([]*jsonschema.Schema, len(branches))
	for i, b := range branches {
		objs[i] = deref(b)
	}
	names := make([]string, 0, len(objs[0].Properties))
	for name := range objs[0].Properties {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if values, ok := literalsOf(objs, name); ok {
			return discriminator{field: name, values: values}, true
		}
	}
	return discriminator{}, false
}

// deref follows a branch that is only a $ref (zod's shared schemas).
func deref(s *jsonschema.Schema) *jsonschema.Schema {
	for range 32 {
		if s.Ref == nil || s.Properties != nil {
			break
		}
		s = s.Ref
	}
	return s
}

// literalsOf returns every branch's literal values of field, or false when
// a branch does not require it as literals or two branches share a value.
func literalsOf(objs []*jsonschema.Schema, field string) ([]any, bool) {
	var values []any
	seen := map[string]bool{}
	for _, o := range objs {
		p := o.Properties[field]
		if p == nil || !slices.Contains(o.Required, field) {
			return nil, false
		}
		var mine []any
		switch {
		case p.Const != nil:
			mine = []any{*p.Const}
		case p.Enum != nil:
			mine = p.Enum.Values
		default:
			return nil, false
		}
		for _, v := range mine {
			b, err := json.Marshal(v)
			if err != nil || seen[string(b)] {
				return nil, false
			}
			seen[string(b)] = true
		}
		values = append(values, mine...)
	}
	return values, true
}

// unionLeaves reports a failed union with a discriminator: the failures of
// the branches its value selects; when it selects none, one issue at the
// discriminator. ok is false when the branches' failures do not say which
// (the caller then reports them all).
func (r *reporter) unionLeaves(ve *jsonschema.ValidationError, d discriminator, out []Issue) ([]Issue, bool) {
	at := append(slices.Clone(ve.InstanceLocation), d.field)
	var selected []*jsonschema.ValidationError
	var got any
	missing, mismatched := 0, 0
	for _, branch := range ve.Causes {
		switch miss, g, bad := discriminatorFailure(branch, ve.InstanceLocation, at, d.field); {
		case miss:
			missing++
		case bad:
			mismatched++
			got = g
		default:
			selected = append(selected, branch)
		}
	}
	switch {
	case len(selected) > 0:
		for _, branch := range selected {
			out = r.leaves(branch, out)
		}
		return out, true
	case missing == len(ve.Causes):
		return append(out, Issue{Path: dotted(at), Message: "required field is missing (it selects the union's branch: " +
			(&kind.Enum{Want: d.values}).LocalizedString(r.printer) + ")"}), true
	case mismatched == len(ve.Causes) && got != nil:
		return append(out, Issue{Path: dotted(at), Message: (&kind.Enum{Got: got, Want: d.values}).LocalizedString(r.printer)}), true
	}
	return out, false
}

// discriminatorFailure reports whether a branch failed for the
// discriminator: missing (a required failure at the union's value naming
// it) or mismatched (any failure at the field itself, with the value the
// field had when the failure says).
func discriminatorFailure(ve *jsonschema.ValidationError, union, at []string, field string) (missing bool, got any, mismatched bool) {
	if len(ve.Causes) > 0 {
		for _, c := range ve.Causes {
			m, g, bad := discriminatorFailure(c, union, at, field)
			missing, mismatched = missing || m, mismatched || bad
			if g != nil {
				got = g
			}
		}
		return missing, got, mismatched
	}
	if k, ok := ve.ErrorKind.(*kind.Required); ok {
		return slices.Equal(ve.InstanceLocation, union) && slices.Contains(k.Missing, field), nil, false
	}
	if !slices.Equal(ve.InstanceLocation, at) {
		return false, nil, false
	}
	switch k := ve.ErrorKind.(type) {
	case *kind.Const:
		return false, k.Got, true
	case *kind.Enum:
		return false, k.Got, true
	}
	return false, nil, true
}

// reporter turns a validation error into issues.
type reporter struct {
	printer *message.Printer
	unions  map[string]discriminator // by the union's schema location
}
