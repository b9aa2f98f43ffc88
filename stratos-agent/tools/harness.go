// Package tools is the engine behind the built-in tool names that agents
// may select with allowedTools and disallowedTools: a Table of every
// harness's names, assembled from the Declaration each harness's package
// makes (its adapter.Harness registration), and the functions that turn a
// selection into each harness's native removal settings.
//
// A tool that two or more harnesses provide has a canonical name (read,
// shell, web_search, …); a tool that only one harness provides keeps that
// harness's own name (NotebookEdit, view_image, codesearch). The native
// names and the facts behind them are in docs/design/harness-tools.md.
// `stratos tools list` prints the table; the harness adapters consume their
// own declarations, so the documentation and the behaviour cannot drift
// apart.
package tools

// Harness names an agent harness that has built-in tools.
type Harness string

// Declaration is one harness's built-in tools, declared once by the
// harness's own package.
type Declaration struct {
	Harness Harness
	// Removal says, for people, how removed tools reach the harness.
	Removal string
	// Tools are the names the harness provides: canonical names it shares
	// with other harnesses and names of its own, spelled as it spells them.
	Tools []Declared
	// Together are pairs of tools the harness can only remove together.
	Together []Pair
}

// Declared is one selectable name and how the harness provides it.
type Declared struct {
	Name string
	Mapping
}

// Mapping is how one harness provides a tool.
type Mapping struct {
	// Native is what removes the tool in that harness, exactly as the
	// harness takes it (Claude Code tool names for --disallowedTools, Codex
	// configuration overrides key=value, OpenCode permission keys). For an
	// always-on tool it is the harness tool that keeps it on.
	Native []string
	// AlwaysOn marks tools the harness cannot remove: naming them in either
	// list is allowed and has no effect.
	AlwaysOn bool
}

// Pair is two tools one native setting governs, with the reason for
// people.
type Pair struct {
	A, B string
	Why  string
}

// Removable declares a tool the harness removes through native.
func Removable(name string, native ...string) Declared {
	return Declared{Name: name, Mapping: Mapping{Native: native}}
}

// AlwaysOn declares a tool the harness keeps whatever the lists say;
// native names the harness tool that keeps it on.
func AlwaysOn(name string, native ...string) Declared {
	return Declared{Name: name, Mapping: Mapping{Native: native, AlwaysOn: true}}
}
