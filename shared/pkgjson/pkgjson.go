// Package pkgjson applies Stratos's one rule for package.json files in
// discovery roots and workflow directories: the package must be an ES module
// package ("type": "module"). A missing file is created; a file without
// "type" gets it, with every other byte left as the author wrote it; a
// package that explicitly says "commonjs" is an error, never overwritten.
package pkgjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/stratoscli/stratos/shared/atomicfile"
	"github.com/stratoscli/stratos/shared/boundedread"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/buildapi"
)

// FileName is the npm package manifest's file name.
const FileName = "package.json"

// MaxFileBytes bounds the package.json files read here: a workflow's or a
// root's package metadata and dependencies, kilobytes in practice
// (docs/files.md). Only a regular file is read; this package rewrites it
// by renaming a new file over it, which a FIFO or a device could not be.
const MaxFileBytes = 1 << 20

// Read reads the package.json at path: a regular file of at most
// MaxFileBytes (the error names the path).
func Read(path string) ([]byte, error) {
	return boundedread.RegularFile(path, MaxFileBytes)
}

// EnsureModule makes the package.json at path declare "type": "module" and
// reports whether it wrote the file. The write is atomic (temp file + rename)
// and keeps the file's permissions.
func EnsureModule(path string) (changed bool, err error) {
	data, err := Read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return true, writeAtomic(path, []byte("{\n  \"type\": \"module\"\n}\n"), 0o644)
	}
	if err != nil {
		return false, clierr.New(buildapi.CodePackageJSONUnreadable, "%v", err).Wrap(err) // names the path
	}
	updated, err := withModuleType(data)
	if err != nil {
		return false, describe(path, err)
	}
	if updated == nil {
		return false, nil
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	return true, writeAtomic(path, updated, mode)
}

// typeError is a "type" field that is not "module".
type typeError struct{ value json.RawMessage }

func (e *typeError) Error() string { return fmt.Sprintf(`"type" is %s`, e.value) }

func describe(path string, err error) error {
	var te *typeError
	switch {
	case errors.As(err, &te) && string(te.value) == `"commonjs"`:
		return clierr.New(buildapi.CodePackageCommonJS,
			`%s declares "type": "commonjs", but Stratos compiles workflows as ES modules: change it to "type": "module" (Stratos does not overwrite an explicit module type)`, path).
			WithDetails(map[string]any{"file": path, "field": "type", "value": "commonjs"})
	case errors.As(err, &te):
		return clierr.New(buildapi.CodePackageTypeInvalid, `%s: "type" is %s; Stratos needs "type": "module"`, path, te.value).
			WithDetails(map[string]any{"file": path, "field": "type", "value": string(te.value)})
	default:
		return clierr.New(buildapi.CodePackageJSONInvalid, "%s is not a valid package.json: %v", path, err).Wrap(err).
			WithDetails(map[string]any{"file": path})
	}
}

// withModuleType returns data with "type": "module" inserted as the first
// field, nil when it already has it, or an error for invalid JSON, a
// non-object document or another "type". Inserting text instead of
// re-encoding keeps the author's field order, formatting and numbers.
func withModuleType(data []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil {
		return nil, err
	} else if tok != json.Delim('{') {
		return nil, errors.New("the document is not a JSON object")
	}
	afterBrace := int(dec.InputOffset())
	var typeValue json.RawMessage
	fields := 0
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, err
		}
		fields++
		if key == "type" {
			typeValue = value // the last one wins, as in JSON.parse
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON object")
	}
	if typeValue != nil {
		if string(typeValue) == `"module"` {
			return nil, nil
		}
		return nil, &typeError{value: typeValue}
	}
	return insertField(data, afterBrace, fields > 0), nil
}

// insertField inserts `"type": "module"` right after the opening brace,
// indented like the line that follows it.
func insertField(data []byte, afterBrace int, hasFields bool) []byte {
	rest := data[afterBrace:]
	newline := "\n"
	if bytes.Contains(data, []byte("\r\n")) {
		newline = "\r\n"
	}
	var field string
	if !hasFields {
		field = newline + "  \"type\": \"module\"" + newline
		rest = bytes.TrimLeft(rest, " \t\r\n")
	} else {
		field = "\"type\": \"module\","
		if indent, ok := nextLineIndent(rest); ok {
			field = newline + indent + field
		} else {
			field += " "
		}
	}
	out := make([]byte, 0, len(data)+len(field))
	out = append(out, data[:afterBrace]...)
	out = append(out, field...)
	return append(out, rest...)
}

// nextLineIndent returns the indentation of the first field when it starts
// on a new line after the brace.
func nextLineIndent(rest []byte) (string, bool) {
	s := string(rest)
	trimmed := strings.TrimLeft(s, " \t\r")
	if !strings.HasPrefix(trimmed, "\n") {
		return "", false
	}
	line := trimmed[1:]
	return line[:len(line)-len(strings.TrimLeft(line, " \t"))], true
}

func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	if err := atomicfile.WriteFile(path, data, mode); err != nil {
		return clierr.New(buildapi.CodePackageJSONWrite, "%v", err).Wrap(err)
	}
	return nil
}
