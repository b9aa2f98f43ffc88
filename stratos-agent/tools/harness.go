// Package tools is the one table of built-in tool names that agents may
// select with allowedTools and disallowedTools, and the functions that turn
// a selection into each harness's native removal settings.
//
// A tool that two or more harnesses provide has a canonical name (read,
// shell, web_search, …); a tool that only one harness provides keeps that
// harness's own name (NotebookEdit, view_image, codesearch). The native
// names and the facts behind them are in docs/design/harness-tools.md.
// `stratos tools list` prints this table; the harness adapters consume it,
// so the documentation and the behaviour cannot drift apart.
package tools

import "fmt"

// Harness names an agent harness that has built-in tools.
type Harness string

// The harnesses whose built-in tools Stratos can select.
const (
	ClaudeCode Harness = "claude-code"
	Codex      Harness = "codex"
	OpenCode   Harness = "opencode"
)

// Harnesses returns every harness with a tool mapping, sorted by name.
func Harnesses() []Harness { return []Harness{ClaudeCode, Codex, OpenCode} }

// ParseHarness returns the harness called name, or an error listing the
// known ones.
func ParseHarness(name string) (Harness, error) {
	for _, h := range Harnesses() {
		if string(h) == name {
			return h, nil
		}
	}
	return "", fmt.Errorf("unknown harness %q (known: claude-code, codex, opencode)", name)
}

// removalMechanism says, for people, how a harness receives removed tools.
func (h Harness) removalMechanism() string {
	switch h {
	case ClaudeCode:
		return "tool names passed to --disallowedTools"
	case Codex:
		return "configuration keys set off (codex --config key=value)"
	case OpenCode:
		return "permissions set to deny in the server and session rules"
	}
	return ""
}
