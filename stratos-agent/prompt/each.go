package prompt

import (
	"reflect"
	"slices"

	"github.com/aymerick/raymond"
)

// orderedEach is the each helper of Stratos's templates. raymond's own
// ranges over an object in Go's random map order, so a template that
// iterates an object rendered a different prompt from one run to the
// next; a prompt is part of what a resumed run matches an execute's
// journal entry by, so such a run could never replay its finished calls.
// Here an object's entries go in the order of their keys (byte order), a
// list's in its order, with @index, @key, @first and @last as Handlebars
// sets them, and {{else}} for an empty or missing one. A block parameter
// names the item (as |item|); raymond gives a helper no way to set the
// second (the key or index), so Render refuses a template that names one
// (@key and @index say it).
func orderedEach(context any, options *raymond.Options) any {
	if !raymond.IsTrue(context) {
		return options.Inverse()
	}
	val := reflect.ValueOf(context)
	var items []any
	var keys []any
	switch val.Kind() {
	case reflect.Array, reflect.Slice:
		for i := range val.Len() {
			items, keys = append(items, val.Index(i).Interface()), append(keys, i)
		}
	case reflect.Map:
		mk := val.MapKeys()
		slices.SortFunc(mk, func(a, b reflect.Value) int {
			return compareKeys(a.Interface(), b.Interface())
		})
		for _, k := range mk {
			items, keys = append(items, val.MapIndex(k).Interface()), append(keys, k.Interface())
		}
	default:
		return ""
	}
	out := ""
	for i, item := range items {
		frame := options.NewDataFrame()
		frame.Set("index", i)
		frame.Set("key", keys[i])
		frame.Set("first", i == 0)
		frame.Set("last", i == len(items)-1)
		out += options.FnCtxData(item, frame)
	}
	return out
}

// compareKeys orders map keys: strings (a JSON object's) by bytes, others
// by their printed form.
func compareKeys(a, b any) int {
	as, aok := a.(string)
	bs, bok := b.(string)
	if !aok || !bok {
		as, bs = raymond.Str(a), raymond.Str(b)
	}
	switch {
	case as < bs:
		return -1
	case as > bs:
		return 1
	}
	return 0
}

// parse parses a template body with Stratos's helpers.
func parse(body string) (*raymond.Template, error) {
	tpl, err := raymond.Parse(body)
	if err != nil {
		return nil, err
	}
	tpl.RegisterHelper("each", orderedEach)
	return tpl, nil
}
