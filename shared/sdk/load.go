package sdk

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/buildapi"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/procgroup"
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

// loaderError is the document the loader writes when it fails.
type loaderError struct {
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Stack   string `json:"stack"`
	} `json:"error"`
}

// LoadDefinition imports a compiled workflow entry (absolute, or relative to
// root) with node through root's SDK and returns its contract; run is never
// called. The module's own stdout and stderr go to stderr; the working
// directory is the caller's. A failure to load returns node's error text.
func LoadDefinition(ctx context.Context, tc *toolchain.Toolchain, root, compiledEntry string, stderr io.Writer) (*Definition, error) {
	entry := compiledEntry
	if !filepath.IsAbs(entry) {
		entry = filepath.Join(root, entry)
	}
	loader := LoaderPath(root)
	if _, err := os.Stat(loader); err != nil {
		return nil, clierr.New(buildapi.CodeSDKNotInstalled, "the SDK is not installed in %s (%s is missing)", root, loader)
	}
	doc, stderrTail, runErr := runLoader(ctx, tc, loader, entry, stderr)
	if ctx.Err() != nil {
		return nil, clierr.New(errcode.CodeInterrupted, "loading %s: %v", entry, ctx.Err()).Wrap(ctx.Err())
	}
	if len(bytes.TrimSpace(doc)) == 0 {
		return nil, clierr.New(buildapi.CodeDefinitionLoadFailed, "node stopped (%v) before reporting the definition of %s: %s",
			runErr, entry, strings.TrimSpace(stderrTail)).WithDetails(map[string]any{"entry": entry})
	}
	var failed loaderError
	if err := json.Unmarshal(doc, &failed); err == nil && failed.Error != nil {
		details := map[string]any{"entry": entry}
		if failed.Error.Stack != "" {
			details["stack"] = failed.Error.Stack
		}
		return nil, clierr.New(failed.Error.Code, "%s", failed.Error.Message).WithDetails(details)
	}
	var def Definition
	if err := json.Unmarshal(doc, &def); err != nil || len(def.Input) == 0 || len(def.Output) == 0 {
		return nil, clierr.New(buildapi.CodeDefinitionLoadFailed, "the loader's report on %s is not a definition: %.200s", entry, doc)
	}
	if def.Unrepresentable == nil {
		def.Unrepresentable = []Unrepresentable{}
	}
	return &def, nil
}

// runLoader runs node with the loader and returns what it wrote to fd 3 and
// the tail of its stderr (which is also copied to stderr).
func runLoader(ctx context.Context, tc *toolchain.Toolchain, loader, entry string, stderr io.Writer) ([]byte, string, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, "", err
	}
	defer r.Close()
	cmd := tc.NodeCommand(ctx, loader, entry)
	// One writer for both streams: exec then copies them through one pipe, so
	// the module's interleaved stdout/stderr arrive in order and never race.
	var tail tailBuffer
	out := io.MultiWriter(stderr, &tail)
	cmd.Stdout, cmd.Stderr = out, out
	// The loader writes its one JSON document to fd 3 (ExtraFiles[0]):
	// stdout belongs to the workflow's own top-level output.
	cmd.ExtraFiles = []*os.File{w}
	// The module's top-level code may start processes of its own: the
	// watchdog takes them too when this process dies.
	proc, err := procgroup.Start(cmd, procgroup.Options{Watchdog: true})
	if err != nil {
		w.Close()
		return nil, "", fmt.Errorf("start %s: %w", tc.Node, err)
	}
	w.Close() // the child holds its own copy; EOF comes when it exits
	docCh := make(chan []byte, 1)
	go func() {
		data, _ := io.ReadAll(r)
		docCh <- data
	}()
	waitErr := proc.Wait()
	return <-docCh, tail.String(), waitErr
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
