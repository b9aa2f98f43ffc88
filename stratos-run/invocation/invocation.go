// Package invocation reads what `stratos run` passes to a workflow: the
// --input document and the --overrides payload. Both are checked here only
// as JSON (and overrides for its shape); the workflow's input schema is
// applied by the runtime, which knows it.
package invocation

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/stratoscli/stratos/shared/boundedread"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/shared/yamlline"
)

// Size limits of what --input and --overrides read, from a file, a FIFO or
// stdin (docs/files.md). Memory stays small whatever a flag names
// (`--input @/dev/zero` ends at the limit), and no legitimate document
// comes near them.
const (
	// MaxInputBytes bounds --input. An input can carry a document for the
	// workflow to work on (a diff, a log), but 16 MiB is four times the
	// text of the largest prompt a model takes (about a million tokens),
	// and the run record keeps the input whole.
	MaxInputBytes = 16 << 20
	// MaxOverridesBytes bounds --overrides: agent settings and
	// test-harness scripts, kilobytes in practice.
	MaxOverridesBytes = 4 << 20
)

// ReadInput returns the JSON document --input names: "" means {} (no
// input), "-" reads stdin, "@path" reads a file, anything else is the JSON
// itself. Invalid JSON is a usage error naming where it came from; so is
// a document over MaxInputBytes. Reading ends when ctx does (SIGINT), as
// an interruption.
func ReadInput(ctx context.Context, value string, stdin io.Reader) (json.RawMessage, error) {
	if value == "" {
		return json.RawMessage("{}"), nil
	}
	data, source, err := read(ctx, "--input", value, stdin, MaxInputBytes)
	if err != nil {
		return nil, readError(runapi.CodeInputInvalid, err)
	}
	if err := checkJSON(data); err != nil {
		return nil, clierr.Usage(runapi.CodeInputInvalid, "%s is not valid JSON: %v", source, err).Wrap(err).
			WithDetails(map[string]any{"source": source})
	}
	return compact(data), nil
}

// ReadOverrides returns the --overrides payload, nil when none is given:
// JSON or "@path" (a JSON file, or a YAML file when its name ends in .yaml
// or .yml), an object with only "agents" (an object mapping agent
// configuration ids to objects of settings) and "decision" (an object), at
// most MaxOverridesBytes. Reading ends when ctx does.
func ReadOverrides(ctx context.Context, value string) (json.RawMessage, error) {
	if value == "" {
		return nil, nil
	}
	data, source, err := read(ctx, "--overrides", value, nil, MaxOverridesBytes)
	if err != nil {
		return nil, readError(runapi.CodeOverridesInvalid, err)
	}
	if isYAMLFile(value) {
		if data, err = yamlToJSON(data); err != nil {
			return nil, clierr.Usage(runapi.CodeOverridesInvalid, "%s is not a valid YAML document: %v", source, err).Wrap(err).
				WithDetails(map[string]any{"source": source})
		}
	}
	if err := checkJSON(data); err != nil {
		return nil, clierr.Usage(runapi.CodeOverridesInvalid, "%s is not valid JSON: %v", source, err).Wrap(err).
			WithDetails(map[string]any{"source": source})
	}
	if problem := OverridesProblem(data); problem != "" {
		return nil, clierr.Usage(runapi.CodeOverridesInvalid, "%s: %s", source, problem).
			WithDetails(map[string]any{"source": source})
	}
	return compact(data), nil
}

// sourceError is a flag whose text could not be read.
type sourceError struct {
	source string // the flag and its value: "--input @in.json"
	err    error
}

func (e *sourceError) Error() string { return e.source + ": " + e.err.Error() }
func (e *sourceError) Unwrap() error { return e.err }

// readError is the CLI error of a flag whose text could not be read: an
// interruption, a document over its limit (input_too_large, naming the
// flag, the limit and what was found), or code for anything else.
func readError(code string, err error) error {
	var se *sourceError
	source := ""
	if errors.As(err, &se) {
		source = se.source
	}
	var tooLarge *boundedread.TooLargeError
	switch {
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		ce := clierr.New(errcode.CodeInterrupted, "interrupted while reading %s", source).Wrap(err)
		ce.Exit = clierr.ExitInterrupted
		return ce
	case errors.As(err, &tooLarge):
		details := map[string]any{"source": source, "limit": tooLarge.Limit}
		if tooLarge.Size > 0 {
			details["size"] = tooLarge.Size
		}
		return clierr.Usage(runapi.CodeInputTooLarge, "%v; see the size limits in docs/files.md", err).Wrap(err).WithDetails(details)
	}
	return clierr.Usage(code, "%v", err).Wrap(err)
}

// read returns the text of a JSON-or-@file flag, at most limit bytes, and
// a description of where it came from, for messages.
func read(ctx context.Context, flag, value string, stdin io.Reader, limit int64) ([]byte, string, error) {
	switch {
	case value == "-" && stdin != nil:
		data, err := boundedread.Reader(ctx, stdin, limit)
		if err != nil {
			return nil, "", &sourceError{flag + " -", fmt.Errorf("read stdin: %w", err)}
		}
		if len(bytes.TrimSpace(data)) == 0 {
			return nil, "", &sourceError{flag + " -", errors.New("stdin is empty; pipe a JSON document into it")}
		}
		return data, flag + " - (stdin)", nil
	case strings.HasPrefix(value, "@"):
		source := flag + " " + value
		data, err := boundedread.File(ctx, value[1:], limit)
		if err != nil {
			return nil, "", &sourceError{source, err}
		}
		return data, source, nil
	}
	return []byte(value), flag, nil // bounded by the system's limit on an argument
}

// isYAMLFile reports whether a flag value names a YAML file: "@path" with a
// .yaml or .yml extension.
func isYAMLFile(value string) bool {
	if !strings.HasPrefix(value, "@") {
		return false
	}
	ext := strings.ToLower(filepath.Ext(value))
	return ext == ".yaml" || ext == ".yml"
}

// yamlToJSON converts one YAML document to JSON. Mapping keys must be
// strings, as JSON's are; a second document is an error rather than
// silently ignored.
func yamlToJSON(data []byte) ([]byte, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc any
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("the file is empty")
		}
		return nil, yamlline.Correct(err)
	}
	var extra any
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, errors.New("the file holds more than one document (---)")
	}
	out, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("not representable as JSON (mapping keys must be strings): %v", err)
	}
	return out, nil
}

// checkJSON reports invalid JSON with the byte offset of the problem.
func checkJSON(data []byte) error {
	var v any
	err := json.Unmarshal(data, &v)
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return fmt.Errorf("%v (at byte %d)", syn, syn.Offset)
	}
	return err
}

// compact returns valid JSON on one line: the runner reads its invocation
// as one line.
func compact(data []byte) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, data); err != nil {
		return data // checked before: cannot happen
	}
	return b.Bytes()
}

// OverridesProblem describes the first shape problem of an overrides
// document, "" when there is none. The SDK applies the same rules to the
// overrides a parent binds to a child workflow.
func OverridesProblem(data []byte) string {
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		return err.Error()
	}
	if doc == nil {
		return ""
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return "must be an object with optional fields agents and decision"
	}
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if k != "agents" && k != "decision" {
			return fmt.Sprintf("unknown field %q (allowed: agents, decision)", k)
		}
	}
	if a, present := obj["agents"]; present {
		agents, ok := a.(map[string]any)
		if !ok {
			return `"agents" must be an object mapping agent configuration ids to objects`
		}
		for _, id := range slices.Sorted(maps.Keys(agents)) {
			if _, ok := agents[id].(map[string]any); !ok {
				return fmt.Sprintf(`"agents.%s" must be an object of agent settings`, id)
			}
		}
	}
	if d, present := obj["decision"]; present {
		if _, ok := d.(map[string]any); !ok {
			return `"decision" must be an object`
		}
	}
	return ""
}

// CheckOverrideTargets returns a usage error when overrides (already
// checked by ReadOverrides) names an agent configuration that the
// workflow's agents section does not declare: an override of nothing
// would be silently ignored. It names the unknown ids and the known ones.
func CheckOverrideTargets(overrides json.RawMessage, workflow string, agents any) error {
	var doc struct {
		Agents map[string]any `json:"agents"`
	}
	if len(overrides) == 0 || json.Unmarshal(overrides, &doc) != nil {
		return nil
	}
	declared, _ := agents.(map[string]any)
	var unknown []string
	for _, id := range slices.Sorted(maps.Keys(doc.Agents)) {
		// "configId#label" targets the agents of configId with that label.
		config, _, _ := strings.Cut(id, "#")
		if _, ok := declared[config]; !ok {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	known := slices.Sorted(maps.Keys(declared))
	list := strings.Join(known, ", ")
	if list == "" {
		list = "none"
	}
	return clierr.Usage(runapi.CodeOverridesInvalid, "--overrides: workflow %q declares no agent configuration %s (known: %s)",
		workflow, strings.Join(unknown, ", "), list).WithDetails(map[string]any{"unknown": unknown, "known": known})
}
