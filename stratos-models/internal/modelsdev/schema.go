package modelsdev

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// The structs below are the Models.dev file formats at the pinned revision.
// Decoding rejects keys they do not declare, so a schema change upstream (a
// renamed or new field) stops generation for review instead of being dropped
// silently. Fields the catalog does not carry are declared too, for that
// reason only.

// CanonicalFile is models/<creator>/<model>.toml. Pointers tell a field that
// is absent from one stated as false, zero or empty; which fields are
// required is the generator's decision, not the decoder's.
type CanonicalFile struct {
	Name             *string     `toml:"name"`
	Family           *string     `toml:"family"`
	Attachment       *bool       `toml:"attachment"`
	Reasoning        *bool       `toml:"reasoning"`
	ToolCall         *bool       `toml:"tool_call"`
	StructuredOutput *bool       `toml:"structured_output"`
	Temperature      *bool       `toml:"temperature"`
	OpenWeights      *bool       `toml:"open_weights"`
	Knowledge        *string     `toml:"knowledge"`
	ReleaseDate      *string     `toml:"release_date"`
	LastUpdated      *string     `toml:"last_updated"`
	Limit            *Limit      `toml:"limit"`
	Modalities       *Modalities `toml:"modalities"`

	// Not carried into the catalog.
	License    *string     `toml:"license"`
	Benchmarks []Benchmark `toml:"benchmarks"`
	Links      []Link      `toml:"links"`
	Weights    []Weight    `toml:"weights"`
}

// Limit is the [limit] table of a canonical file, in tokens.
type Limit struct {
	Context *int64 `toml:"context"`
	Input   *int64 `toml:"input"`
	Output  *int64 `toml:"output"`
}

// Modalities is the [modalities] table of a canonical file.
type Modalities struct {
	Input  *[]string `toml:"input"`
	Output *[]string `toml:"output"`
}

// Benchmark is one [[benchmarks]] entry of a canonical file.
type Benchmark struct {
	Name    string  `toml:"name"`
	Dataset string  `toml:"dataset"`
	Date    string  `toml:"date"`
	Harness string  `toml:"harness"`
	Metric  string  `toml:"metric"`
	Score   float64 `toml:"score"`
	Source  string  `toml:"source"`
	Variant string  `toml:"variant"`
	Version string  `toml:"version"`
}

// Link is one [[links]] entry of a canonical file.
type Link struct {
	Label string `toml:"label"`
	Type  string `toml:"type"`
	URL   string `toml:"url"`
}

// Weight is one [[weights]] entry of a canonical file.
type Weight struct {
	Label        string `toml:"label"`
	Quantization string `toml:"quantization"`
	URL          string `toml:"url"`
}

// providerFile is providers/<id>/provider.toml.
type providerFile struct {
	Name *string  `toml:"name"`
	API  string   `toml:"api"`
	Doc  string   `toml:"doc"`
	Env  []string `toml:"env"`
	NPM  string   `toml:"npm"`
}

// offeringFile is providers/<p>/models/<native-id>.toml. Only base_model
// may map a file to a canonical model, so only its value is read; it stays
// untyped so that a value that is not a string is reported as an invalid
// link rather than failing the whole generation. The other keys are declared
// so that an unknown one (such as a misspelt base_model) is an error; their
// values are Models.dev's to validate and are not checked here.
type offeringFile struct {
	BaseModel any `toml:"base_model"`

	BaseModelOmit    any `toml:"base_model_omit"`
	Name             any `toml:"name"`
	Family           any `toml:"family"`
	Attachment       any `toml:"attachment"`
	Reasoning        any `toml:"reasoning"`
	ReasoningOptions any `toml:"reasoning_options"`
	ToolCall         any `toml:"tool_call"`
	StructuredOutput any `toml:"structured_output"`
	Temperature      any `toml:"temperature"`
	OpenWeights      any `toml:"open_weights"`
	Interleaved      any `toml:"interleaved"`
	Knowledge        any `toml:"knowledge"`
	ReleaseDate      any `toml:"release_date"`
	LastUpdated      any `toml:"last_updated"`
	Status           any `toml:"status"`
	Cost             any `toml:"cost"`
	Limit            any `toml:"limit"`
	Modalities       any `toml:"modalities"`
	Provider         any `toml:"provider"`
	Experimental     any `toml:"experimental"`
}

// decodeStrict decodes content into v, rejecting keys v does not declare.
// name is the file as messages show it.
func decodeStrict(name string, content []byte, v any) error {
	dec := toml.NewDecoder(bytes.NewReader(content))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("parse %s: %s", name, describeDecodeError(err))
	}
	return nil
}

// describeDecodeError states where and what went wrong in TOML terms: line
// and dotted key, never the Go type that happened to receive the value.
func describeDecodeError(err error) string {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) {
		var keys []string
		for _, e := range strict.Errors {
			row, _ := e.Position()
			keys = append(keys, fmt.Sprintf("%s (line %d)", strings.Join(e.Key(), "."), row))
		}
		return "unknown field " + strings.Join(keys, ", ")
	}
	var de *toml.DecodeError
	if !errors.As(err, &de) {
		return err.Error()
	}
	row, _ := de.Position()
	msg := goTypeFree(strings.TrimPrefix(de.Error(), "toml: "))
	if key := de.Key(); len(key) > 0 {
		return fmt.Sprintf("line %d: field %s: %s", row, strings.Join(key, "."), msg)
	}
	return fmt.Sprintf("line %d: %s", row, msg)
}

// goTypeFree shortens go-toml's "cannot decode TOML string into struct
// field modelsdev.Limit.Context of type *int64" to "cannot decode TOML
// string into int64".
func goTypeFree(msg string) string {
	i := strings.Index(msg, " into struct field ")
	j := strings.LastIndex(msg, " of type ")
	if i < 0 || j < i {
		return msg
	}
	return msg[:i] + " into " + strings.TrimLeft(msg[j+len(" of type "):], "*")
}
