package tools

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// ErrInvalidSelection is wrapped by every selection error, so the agent host
// can report them all as one catchable configuration error.
var ErrInvalidSelection = errors.New("invalid built-in tool selection")

// UnknownToolError is a name in allowedTools or disallowedTools that no
// harness has.
type UnknownToolError struct {
	Field      string // "allowedTools" or "disallowedTools"
	Name       string
	Suggestion string // a table name the author probably meant, or ""
}

func (e *UnknownToolError) Error() string {
	msg := fmt.Sprintf("%s: unknown built-in tool name %q", e.Field, e.Name)
	if e.Suggestion != "" {
		msg += fmt.Sprintf("; did you mean %q?", e.Suggestion)
	}
	return msg + ` (names are case-sensitive; run "stratos tools list")`
}

func (e *UnknownToolError) Unwrap() error { return ErrInvalidSelection }

// PairedToolsError is a selection that removes one of two tools a harness
// can only remove together (OpenCode's edit and write share the edit
// permission).
type PairedToolsError struct {
	Harness Harness
	Removed string
	Kept    string
	// Why is the harness's reason (Pair.Why).
	Why string
}

func (e *PairedToolsError) Error() string {
	a, b := e.Removed, e.Kept
	if b < a {
		a, b = b, a
	}
	return fmt.Sprintf("%s: %s is removed but %s is kept; %s, so keep or remove %s and %s together",
		e.Harness, e.Removed, e.Kept, e.Why, a, b)
}

func (e *PairedToolsError) Unwrap() error { return ErrInvalidSelection }

// suggest returns the table name an unknown name most likely stands for: the
// same name in another case, or the selectable name of a native tool name
// ("Bash" → "shell", "websearch" → "web_search").
func (tb *Table) suggest(name string) string {
	var candidates []string
	for _, t := range tb.tools {
		if strings.EqualFold(t.Name, name) {
			candidates = append(candidates, t.Name)
			continue
		}
		for _, m := range t.In {
			if m.AlwaysOn {
				continue
			}
			for _, n := range m.Native {
				// A Codex override "features.shell_tool=false" stands for
				// the feature's name.
				n, _, _ = strings.Cut(n, "=")
				if strings.EqualFold(strings.TrimPrefix(n, "features."), name) {
					candidates = append(candidates, t.Name)
				}
			}
		}
	}
	if len(candidates) == 0 {
		return ""
	}
	sort.Strings(candidates)
	return candidates[0]
}
