package freshness

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/stratoscli/stratos/shared/toolchain"
	"github.com/stratoscli/stratos/shared/version"
)

// keyFormat changes whenever the way the key is computed changes.
const keyFormat = "stratos-freshness-v1"

// Toolchain is the part of the key that comes from Stratos itself.
type Toolchain struct {
	StratosVersion    string   `json:"stratosVersion"`
	TypeScriptVersion string   `json:"typescriptVersion"`
	TypesNodeVersion  string   `json:"typesNodeVersion"`
	CompilerFlags     []string `json:"compilerFlags"`
}

// CurrentToolchain returns the toolchain of this Stratos binary.
func CurrentToolchain() Toolchain {
	return Toolchain{
		StratosVersion:    version.Version,
		TypeScriptVersion: toolchain.TypeScriptVersion,
		TypesNodeVersion:  toolchain.TypesNodeVersion,
		CompilerFlags:     slices.Clone(toolchain.CompilerFlags),
	}
}

// Equal reports whether t and o are the same toolchain.
func (t Toolchain) Equal(o Toolchain) bool {
	return t.StratosVersion == o.StratosVersion && t.TypeScriptVersion == o.TypeScriptVersion &&
		t.TypesNodeVersion == o.TypesNodeVersion && slices.Equal(t.CompilerFlags, o.CompilerFlags)
}

// Reference is a referenced workflow and its own key ("" when it is missing
// or part of a cycle).
type Reference struct {
	Name string `json:"name"`
	Key  string `json:"key"`
}

// Parts are everything the key is computed from.
type Parts struct {
	Toolchain  Toolchain   `json:"toolchain"`
	Files      []FileHash  `json:"files"`
	Imports    []FileHash  `json:"imports,omitempty"`
	References []Reference `json:"references"`
}

// Key returns the hex SHA-256 over the parts, in a fixed textual form.
func (p Parts) Key() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nstratos %s\ntypescript %s\ntypes-node %s\nflags %s\n", keyFormat,
		p.Toolchain.StratosVersion, p.Toolchain.TypeScriptVersion, p.Toolchain.TypesNodeVersion,
		strings.Join(p.Toolchain.CompilerFlags, " "))
	for _, f := range p.Files {
		fmt.Fprintf(&b, "file %q %s\n", f.Path, f.SHA256)
	}
	// Imported files outside the workflow's directory come after its own
	// files, so the key of a workflow that has none is what it always was.
	for _, f := range p.Imports {
		fmt.Fprintf(&b, "import %q %s\n", f.Path, f.SHA256)
	}
	for _, r := range p.References {
		fmt.Fprintf(&b, "ref %s %s\n", r.Name, r.Key)
	}
	h := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(h[:])
}
