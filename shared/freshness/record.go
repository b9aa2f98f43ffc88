package freshness

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	fastjson "github.com/segmentio/encoding/json"

	"github.com/stratoscli/stratos/shared/atomicfile"
	"github.com/stratoscli/stratos/shared/filestat"
)

// RecordFormat is the build record's format version. Format 2 added the
// output schema: an older record reads as unreadable, so the workflow is
// built again and gains one.
const RecordFormat = 2

// RecordFile is the build record's path inside a workflow directory.
const RecordFile = "dist/.stratos-build.json"

// Record is written by the build only after a fully successful preparation;
// discovery reads it to decide whether a workflow is built.
type Record struct {
	FormatVersion int    `json:"formatVersion"`
	Name          string `json:"name"`
	Key           string `json:"key"`
	Parts         Parts  `json:"parts"`
	Entry         string `json:"entry"` // compiled entrypoint, relative to the workflow directory
	// WrapperSHA256 is the hash of the child-workflow wrapper the build
	// generated (<root>/.generated/<name>.ts), so a later build can tell a
	// current wrapper from a missing or edited one without running node.
	WrapperSHA256 string `json:"wrapperSha256,omitempty"`
	// OutputSchema is the workflow's output contract as JSON Schema, as the
	// build loaded it: `stratos run` checks the runtime's reported output
	// against it, independently of the runtime's own check.
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	BuiltAt      time.Time       `json:"builtAt"`
}

// CompiledEntry returns the compiled entrypoint of the workflow in wfDir,
// relative to it: the build mirrors root-relative source paths under dist/,
// so <wf>/workflow.ts compiles to <wf>/dist/<wf>/workflow.js.
func CompiledEntry(wfDir, entrypoint string) string {
	js := entrypoint[:len(entrypoint)-len(filepath.Ext(entrypoint))] + ".js"
	return filepath.ToSlash(filepath.Join("dist", filepath.Base(wfDir), js))
}

// ReadRecord reads the build record of the workflow in wfDir. A missing
// record returns (nil, nil).
func ReadRecord(wfDir string) (*Record, error) {
	r, _, err := ReadRecordStat(wfDir)
	return r, err
}

// ReadRecordStat is ReadRecord that also returns the record file's stat
// data, taken before its content was read.
func ReadRecordStat(wfDir string) (*Record, filestat.Stat, error) {
	p := filepath.Join(wfDir, RecordFile)
	bp := buffers.Get().(*[]byte)
	defer buffers.Put(bp)
	data, st, err := filestat.ReadFile(p, bp)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, filestat.Stat{}, nil
	}
	if err != nil {
		return nil, filestat.Stat{}, err // "read <path>: …"
	}
	// segmentio's decoder, a drop-in for encoding/json's: listing parses
	// a record and a stat cache per built workflow, and encoding/json's
	// reflection made a quarter of `stratos list`'s time.
	var r Record
	if err := fastjson.Unmarshal(data, &r); err != nil {
		return nil, filestat.Stat{}, fmt.Errorf("parse %s: %w", p, err)
	}
	if r.FormatVersion != RecordFormat {
		return nil, filestat.Stat{}, fmt.Errorf("%s: unsupported format version %d", p, r.FormatVersion)
	}
	return &r, st, nil
}

// WriteRecord writes r atomically (temp file + rename), so that a crash never
// leaves a half-written record that could be mistaken for a build.
func WriteRecord(wfDir string, r *Record) error {
	return WriteRecordInto(filepath.Join(wfDir, "dist"), r)
}

// WriteRecordInto writes r into outDir, a build's output directory that
// becomes the workflow's dist/ (a build writes its record into its staged
// output, which then replaces dist/ as a whole). opts are atomicfile's (a
// build flushes its output directory as a whole).
func WriteRecordInto(outDir string, r *Record, opts ...atomicfile.Option) error {
	p := filepath.Join(outDir, filepath.Base(RecordFile))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(p), err)
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(p, append(data, '\n'), atomicfile.Public, opts...)
}

// RemoveRecord deletes the build record of wfDir, if any.
func RemoveRecord(wfDir string) error {
	err := os.Remove(filepath.Join(wfDir, RecordFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// Status values.
const (
	Built    = "built"
	NotBuilt = "not-built"
)

// Reasons a workflow is not built. They are part of the JSON contract.
const (
	ReasonNeverBuilt       = "never-built"
	ReasonSourcesChanged   = "sources-changed"
	ReasonReferenceChanged = "reference-changed"
	ReasonToolchainChanged = "toolchain-changed"
	ReasonMissingReference = "missing-reference"
	ReasonReferenceCycle   = "reference-cycle"
	ReasonRecordUnreadable = "record-unreadable"
	ReasonOutputMissing    = "output-missing"
	ReasonDepsMissing      = "dependencies-missing"
	// ReasonImportOutsideRoot: a source file imports a file outside the
	// discovery root, which the build cannot compile.
	ReasonImportOutsideRoot = "import-outside-root"
	// ReasonSDKNotCurrent: the workflow's build is current, but the root's
	// installed SDK is not this Stratos's (missing, another version, or
	// altered), so its build is replaced together with the SDK.
	ReasonSDKNotCurrent = "sdk-not-current"
)

// Compare decides the status of the workflow in wfDir whose current parts
// and key are given, against its build record.
func Compare(wfDir string, parts Parts, key string) (status, reason string) {
	rec, err := ReadRecord(wfDir)
	return CompareRecord(wfDir, rec, err, parts, key)
}

// CompareRecord is Compare with the record (and the error reading it)
// already at hand, so callers can read records in parallel.
func CompareRecord(wfDir string, rec *Record, err error, parts Parts, key string) (status, reason string) {
	switch {
	case err != nil:
		return NotBuilt, ReasonRecordUnreadable
	case rec == nil:
		return NotBuilt, ReasonNeverBuilt
	}
	return CompareSummary(WorkflowDir{Path: wfDir}, rec.Summarize(parts), parts, key)
}

// WorkflowDir names a workflow directory for the checks of its build's
// outputs: by path, or as the entry Name of its open discovery Root, which
// spares the kernel resolving every component of a deep path per check.
type WorkflowDir struct {
	Path string
	Root *filestat.Dir
	Name string
	// Checked, when set, holds the checks of the outputs already made:
	// listing makes them in parallel, with the stat calls that validate
	// its index.
	Checked *OutputChecks
}

// OutputChecks are the checks of a current build's outputs.
type OutputChecks struct {
	EntryExists bool // the compiled entrypoint
	DepsMissing bool // see dependenciesMissing
}

// CheckOutputs checks the outputs of the build whose compiled entrypoint
// is entry (relative to the workflow directory).
func (d WorkflowDir) CheckOutputs(entry string) OutputChecks {
	return OutputChecks{EntryExists: d.exists(entry), DepsMissing: dependenciesMissing(d)}
}

// exists reports whether the path rel (slash-separated) in the directory
// leads to something.
func (d WorkflowDir) exists(rel string) bool {
	var err error
	if d.Root != nil {
		_, err = d.Root.Stat(d.Name + "/" + rel)
	} else {
		_, err = filestat.Path(filepath.Join(d.Path, filepath.FromSlash(rel)))
	}
	return err == nil
}

// Summary is what deciding a workflow's status takes from its build
// record, given the parts of its sources now: listing keeps it in its
// index instead of the record, which it then need not read.
type Summary struct {
	// SameToolchain and SameSources say whether the record's toolchain,
	// and its files and imports, are those of the parts it was summarized
	// against.
	SameToolchain bool        `json:"sameToolchain"`
	SameSources   bool        `json:"sameSources"`
	References    []Reference `json:"references"`
	Key           string      `json:"key"`
	Entry         string      `json:"entry"`
}

// Summarize returns the summary of r against the parts of the sources
// now.
func (r *Record) Summarize(parts Parts) Summary {
	return Summary{
		SameToolchain: r.Parts.Toolchain.Equal(parts.Toolchain),
		SameSources:   slices.Equal(r.Parts.Files, parts.Files) && slices.Equal(r.Parts.Imports, parts.Imports),
		References:    r.Parts.References, Key: r.Key, Entry: r.Entry,
	}
}

// CompareSummary is CompareRecord with the record summarized against the
// same sources as parts.
func CompareSummary(wfDir WorkflowDir, rec Summary, parts Parts, key string) (status, reason string) {
	switch {
	case !rec.SameToolchain:
		return NotBuilt, ReasonToolchainChanged
	case !rec.SameSources:
		return NotBuilt, ReasonSourcesChanged
	case !slices.Equal(rec.References, parts.References):
		return NotBuilt, ReasonReferenceChanged
	case rec.Key != key:
		return NotBuilt, ReasonSourcesChanged
	}
	if c := wfDir.Checked; c != nil {
		switch {
		case !c.EntryExists:
			return NotBuilt, ReasonOutputMissing
		case c.DepsMissing:
			return NotBuilt, ReasonDepsMissing
		}
		return Built, ""
	}
	if !wfDir.exists(rec.Entry) {
		return NotBuilt, ReasonOutputMissing
	}
	if dependenciesMissing(wfDir) {
		return NotBuilt, ReasonDepsMissing
	}
	return Built, ""
}

// dependenciesMissing reports whether the workflow's package.json declares
// npm dependencies that are not installed: npm writes
// node_modules/.package-lock.json on every install, so its absence means
// node_modules was deleted (or never filled) and the compiled code would
// fail to import its packages. That file is looked for first: when it is
// there, package.json need not be read.
func dependenciesMissing(wfDir WorkflowDir) bool {
	if wfDir.exists("node_modules/.package-lock.json") {
		return false
	}
	bp := buffers.Get().(*[]byte)
	defer buffers.Put(bp)
	data, _, err := filestat.ReadFile(filepath.Join(wfDir.Path, "package.json"), bp)
	if err != nil {
		return false
	}
	declares, err := DeclaresDependencies(data)
	return err == nil && declares
}

// DeclaresDependencies reports whether package.json content declares any
// npm dependency (dependencies, devDependencies or optionalDependencies).
func DeclaresDependencies(packageJSON []byte) (bool, error) {
	var pkg map[string]json.RawMessage
	if err := json.Unmarshal(packageJSON, &pkg); err != nil {
		return false, err
	}
	for _, k := range []string{"dependencies", "devDependencies", "optionalDependencies"} {
		var deps map[string]any
		if raw, ok := pkg[k]; ok && json.Unmarshal(raw, &deps) == nil && len(deps) > 0 {
			return true, nil
		}
	}
	return false, nil
}
