package generate

import (
	"fmt"
	"strings"

	"github.com/stratoscli/stratos/stratos-models/internal/catalog"
	"github.com/stratoscli/stratos/stratos-models/internal/modelsdev"
)

// required remembers the first required field a canonical file does not
// state, so the error names the file and the field. Types were checked when
// the file was decoded.
type required struct {
	path string
	err  error
}

func (r *required) missing(key, want string) {
	if r.err == nil {
		r.err = fmt.Errorf("%s: field %s is missing (it must be %s)", r.path, key, want)
	}
}

func (r *required) str(key string, v *string) string {
	if v == nil || *v == "" {
		r.missing(key, "a non-empty string")
		return ""
	}
	return *v
}

func (r *required) boolean(key string, v *bool) bool {
	if v == nil {
		r.missing(key, "a boolean")
		return false
	}
	return *v
}

func (r *required) strings(key string, v *[]string) []string {
	if v == nil {
		r.missing(key, "a list of strings")
		return nil
	}
	return append([]string{}, *v...)
}

func (r *required) count(key string, v *int64) int64 {
	if v == nil {
		r.missing(key, "a non-negative integer")
		return 0
	}
	return *v
}

// nonNegative rejects a negative token count, which the TOML type allows.
func (r *required) nonNegative(key string, v *int64) *int64 {
	if v != nil && *v < 0 && r.err == nil {
		r.err = fmt.Errorf("%s: field %s must be a non-negative integer, found %d", r.path, key, *v)
	}
	return v
}

func optional(v *string) string {
	if v == nil {
		return ""
	}
	return *v
}

// canonicalModel converts models/<creator>/<model>.toml into a catalog
// model (without providers). Fields upstream always states are required;
// the others stay absent rather than defaulting, so "not stated" survives.
func canonicalModel(c modelsdev.Canonical) (*catalog.Model, error) {
	f, r := c.File, &required{path: c.Path}
	limit, modalities := modelsdev.Limit{}, modelsdev.Modalities{}
	if f.Limit != nil {
		limit = *f.Limit
	}
	if f.Modalities != nil {
		modalities = *f.Modalities
	}
	creator, _, _ := strings.Cut(c.ID, "/")
	m := &catalog.Model{
		Creator:          creator,
		Name:             r.str("name", f.Name),
		Family:           optional(f.Family),
		ToolCall:         r.boolean("tool_call", f.ToolCall),
		Reasoning:        r.boolean("reasoning", f.Reasoning),
		Attachment:       r.boolean("attachment", f.Attachment),
		Temperature:      f.Temperature,
		OpenWeights:      r.boolean("open_weights", f.OpenWeights),
		StructuredOutput: f.StructuredOutput,
		Limit: catalog.Limit{
			Context: r.count("limit.context", r.nonNegative("limit.context", limit.Context)),
			Input:   r.nonNegative("limit.input", limit.Input),
			Output:  r.nonNegative("limit.output", limit.Output),
		},
		Modalities: catalog.Modalities{
			Input:  r.strings("modalities.input", modalities.Input),
			Output: r.strings("modalities.output", modalities.Output),
		},
		ReleaseDate: optional(f.ReleaseDate),
		LastUpdated: optional(f.LastUpdated),
		Knowledge:   optional(f.Knowledge),
		Providers:   map[string][]catalog.NativeID{},
	}
	return m, r.err
}
