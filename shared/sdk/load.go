package sdk

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/buildapi"
	"github.com/stratoscli/stratos/shared/toolchain"
)

// Definition is what loading a compiled workflow reveals, without running it.
type Definition struct {
	// Input is the input contract as JSON Schema, as callers send it (Zod's
	// io: "input": fields with defaults are optional).
	Input json.RawMessage `json:"input"`
	// Output is the output contract as JSON Schema (io: "output").
	Output json.RawMessage `json:"output"`
	// Unrepresentable lists what JSON Schema cannot express (dates,
	// transforms, refinements, ...), sorted by side, path and kind.
	Unrepresentable []Unrepresentable `json:"unrepresentable"`
}

// Unrepresentable is one part of a schema that JSON Schema cannot represent.
type Unrepresentable struct {
	Side string `json:"side"` // "input" or "output"
	Path string `json:"path"` // JSON Pointer into that side's schema; "" is the schema itself
	Kind string `json:"kind"` // the Zod construct: date, transform, refine, bigint, custom, ...
}

// LoaderPath is the root-local ESM bridge: the loader entry of the root's
// own SDK. Running it from there (not from a copy bundled with the CLI)
// makes the loader, the workflow and the runtime share one SDK instance,
// since node resolves the workflow's `@stratoscli/stratos` import to the
// same files; and it is version-checked with the SDK, so it cannot drift.
func LoaderPath(root string) string {
	return filepath.Join(InstalledDir(root), "dist", "loader.js")
}

// RunnerPath is the runner entry of root's SDK, which `stratos run` starts
// with node for the same reason as LoaderPath: one SDK instance.
func RunnerPath(root string) string {
	return filepath.Join(InstalledDir(root), "dist", "runner.js")
}

// LoadDefinition imports a compiled workflow entry (absolute, or relative to
// root) with node through root's SDK and returns its contract; run is never
// called. The module's own stdout and stderr go to stderr; the working
// directory is the caller's. A failure to load returns node's error text.
// It is LoadDefinitions of one entry, bounded by ctx alone.
func LoadDefinition(ctx context.Context, tc *toolchain.Toolchain, root, compiledEntry string, stderr io.Writer) (*Definition, error) {
	l := LoadDefinitions(ctx, tc, root, []string{compiledEntry}, stderr, 0)[0]
	return l.Definition, l.Err
}

// tailBuffer keeps the last 8 KiB written to it: enough for node's error
// message and stack, bounded whatever the module prints.
type tailBuffer struct{ buf []byte }

func (t *tailBuffer) Write(p []byte) (int, error) {
	const max = 8 << 10
	t.buf = append(t.buf, p...)
	if len(t.buf) > max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string { return string(t.buf) }

// UnrepresentableError returns an error (code schema_unrepresentable) listing
// every unrepresentable part of workflow's schemas, or nil when there is none.
func (d *Definition) UnrepresentableError(workflow string) error {
	if len(d.Unrepresentable) == 0 {
		return nil
	}
	lines := make([]string, 0, len(d.Unrepresentable))
	for _, u := range d.Unrepresentable {
		at := u.Path
		if at == "" {
			at = "(the schema itself)"
		}
		lines = append(lines, fmt.Sprintf("  %s %s: %s", u.Side, at, kindHint(u.Kind)))
	}
	return clierr.New(buildapi.CodeSchemaUnrepresentable,
		"workflow %s: its schemas use what JSON Schema cannot represent; keep public contracts to JSON data and move checks and transformations into run:\n%s",
		workflow, strings.Join(lines, "\n")).WithDetails(map[string]any{"workflow": workflow, "unrepresentable": d.Unrepresentable})
}

func kindHint(kind string) string {
	switch kind {
	case "date":
		return "a Date (use z.iso.datetime() for a timestamp string)"
	case "transform":
		return "a transform (.transform, z.preprocess)"
	case "refine":
		return "a custom refinement (.refine, .superRefine, .check)"
	case "bigint":
		return "a bigint (use z.number().int() or a string)"
	case "custom":
		return "a custom type (z.custom, z.instanceof)"
	default:
		return "a " + kind + " schema"
	}
}
