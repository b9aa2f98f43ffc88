package generate

import (
	"fmt"
	"strings"

	"github.com/stratoscli/stratos/stratos-models/internal/catalog"
	"github.com/stratoscli/stratos/stratos-models/internal/modelsdev"
	"github.com/stratoscli/stratos/stratos-models/internal/toml"
)

// fields reads typed values out of one decoded canonical file and remembers
// the first problem, so a file's errors name the file and the field.
type fields struct {
	path string
	data map[string]any
	err  error
}

func (f *fields) fail(key, want string, v any) {
	switch {
	case f.err != nil:
	case v == nil:
		f.err = fmt.Errorf("%s: field %s is missing (it must be %s)", f.path, key, want)
	default:
		f.err = fmt.Errorf("%s: field %s must be %s, found %T %v", f.path, key, want, v, v)
	}
}

// lookup follows a dotted key such as "limit.context".
func (f *fields) lookup(key string) (any, bool) {
	var cur any = f.data
	for _, part := range strings.Split(key, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[part]; !ok {
			return nil, false
		}
	}
	return cur, true
}

func (f *fields) str(key string, required bool) string {
	v, ok := f.lookup(key)
	if !ok {
		if required {
			f.fail(key, "a string", nil)
		}
		return ""
	}
	switch s := v.(type) {
	case string:
		return s
	case toml.DateTime:
		return string(s)
	}
	f.fail(key, "a string", v)
	return ""
}

func (f *fields) boolean(key string) bool {
	v, ok := f.lookup(key)
	b, isBool := v.(bool)
	if !ok || !isBool {
		f.fail(key, "a boolean", v)
	}
	return b
}

func (f *fields) optBool(key string) *bool {
	v, ok := f.lookup(key)
	if !ok {
		return nil
	}
	b, isBool := v.(bool)
	if !isBool {
		f.fail(key, "a boolean", v)
		return nil
	}
	return &b
}

func (f *fields) optInt(key string) *int64 {
	v, ok := f.lookup(key)
	if !ok {
		return nil
	}
	n, isInt := v.(int64)
	if !isInt || n < 0 {
		f.fail(key, "a non-negative integer", v)
		return nil
	}
	return &n
}

func (f *fields) strings(key string) []string {
	v, ok := f.lookup(key)
	items, isList := v.([]any)
	if !ok || !isList {
		f.fail(key, "a list of strings", v)
		return nil
	}
	out := make([]string, 0, len(items))
	for _, item := range items {
		s, isString := item.(string)
		if !isString {
			f.fail(key, "a list of strings", v)
			return nil
		}
		out = append(out, s)
	}
	return out
}

// canonicalModel converts models/<creator>/<model>.toml into a catalog
// model (without providers). Fields upstream always states are required;
// the others stay absent rather than defaulting, so "not stated" survives.
func canonicalModel(c modelsdev.Canonical) (*catalog.Model, error) {
	f := &fields{path: c.Path, data: c.Data}
	creator, _, _ := strings.Cut(c.ID, "/")
	m := &catalog.Model{
		Creator:          creator,
		Name:             f.str("name", true),
		Family:           f.str("family", false),
		ToolCall:         f.boolean("tool_call"),
		Reasoning:        f.boolean("reasoning"),
		Attachment:       f.boolean("attachment"),
		Temperature:      f.optBool("temperature"),
		OpenWeights:      f.boolean("open_weights"),
		StructuredOutput: f.optBool("structured_output"),
		Limit: catalog.Limit{
			Input:  f.optInt("limit.input"),
			Output: f.optInt("limit.output"),
		},
		Modalities: catalog.Modalities{
			Input:  f.strings("modalities.input"),
			Output: f.strings("modalities.output"),
		},
		ReleaseDate: f.str("release_date", false),
		LastUpdated: f.str("last_updated", false),
		Knowledge:   f.str("knowledge", false),
		Providers:   map[string][]catalog.NativeID{},
	}
	if ctx := f.optInt("limit.context"); ctx != nil {
		m.Limit.Context = *ctx
	} else {
		f.fail("limit.context", "a non-negative integer", nil)
	}
	if f.err == nil && m.Name == "" {
		f.fail("name", "a non-empty string", "")
	}
	return m, f.err
}
