package tools

import (
	"sort"
	"strconv"
)

// Selection is an agent's resolved built-in tool selection.
//
// A nil AllowedTools means the field was omitted (keep the harness's default
// tools); a non-nil empty slice removes every removable tool. This is how
// encoding/json decodes an absent field and `[]`, so a decoded configuration
// can be passed as it is.
type Selection struct {
	AllowedTools    []string
	DisallowedTools []string
}

// Validate checks every name in both lists against the whole table: a name
// no harness has is an *UnknownToolError. Names of another harness are valid
// here; each harness ignores what it does not have.
func Validate(sel Selection) error {
	known := make(map[string]bool)
	for _, t := range Table() {
		known[t.Name] = true
	}
	for _, list := range []struct {
		field string
		names []string
	}{{"allowedTools", sel.AllowedTools}, {"disallowedTools", sel.DisallowedTools}} {
		for _, n := range list.names {
			if !known[n] {
				return &UnknownToolError{Field: list.field, Name: n, Suggestion: suggest(n)}
			}
		}
	}
	return nil
}

// Removed validates sel and returns the names of the tools harness h must
// remove, sorted. Always-on tools and tools h does not have are never
// returned. For OpenCode, edit and write must be removed together
// (*PairedToolsError otherwise).
func Removed(h Harness, sel Selection) ([]string, error) {
	if err := Validate(sel); err != nil {
		return nil, err
	}
	if _, err := ParseHarness(string(h)); err != nil {
		return nil, err
	}
	allowed := setOf(sel.AllowedTools)
	disallowed := setOf(sel.DisallowedTools)
	var out []string
	for _, t := range Table() {
		if _, ok := t.removable(h); !ok {
			continue
		}
		if disallowed[t.Name] || (sel.AllowedTools != nil && !allowed[t.Name]) {
			out = append(out, t.Name)
		}
	}
	if h == OpenCode {
		if err := checkPaired(out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// checkPaired enforces that OpenCode's edit and write, which share one
// permission, are removed together or kept together.
func checkPaired(removed []string) error {
	r := setOf(removed)
	if r["edit"] != r["write"] {
		pe := &PairedToolsError{Harness: OpenCode, Removed: "edit", Kept: "write"}
		if r["write"] {
			pe.Removed, pe.Kept = "write", "edit"
		}
		return pe
	}
	return nil
}

// natives returns the sorted, de-duplicated native names of the tools h
// removes under sel.
func natives(h Harness, sel Selection) ([]string, error) {
	removed, err := Removed(h, sel)
	if err != nil {
		return nil, err
	}
	byName := make(map[string]Tool)
	for _, t := range Table() {
		byName[t.Name] = t
	}
	set := make(map[string]bool)
	for _, n := range removed {
		native, _ := byName[n].removable(h)
		for _, x := range native {
			set[x] = true
		}
	}
	out := make([]string, 0, len(set))
	for x := range set {
		out = append(out, x)
	}
	sort.Strings(out)
	return out, nil
}

// ClaudeDisallowedTools returns the tool names to pass to Claude Code's
// --disallowedTools, sorted. Bare tool names remove the tools from the
// model's list (docs/design/claude-code-cli.md, "Built-in tools").
//
// Claude Code 2.1.332 has no Glob or Grep by default and adds them when Bash
// is removed. Removing shell therefore leaves glob and grep available unless
// the selection removes them too, in which case Glob/Grep are in the list.
func ClaudeDisallowedTools(sel Selection) ([]string, error) {
	return natives(ClaudeCode, sel)
}

// CodexSetting is one Codex configuration override.
type CodexSetting struct {
	Key   string `json:"key"`
	Value any    `json:"value"` // false, or "disabled" for web_search
}

// Override renders s as a `codex --config` argument (key=TOML value).
func (s CodexSetting) Override() string {
	return s.Key + "=" + tomlValue(s.Value)
}

// CodexConfigOverrides returns the Codex configuration keys that remove the
// selected tools, each with its off value, sorted by key.
func CodexConfigOverrides(sel Selection) ([]CodexSetting, error) {
	keys, err := natives(Codex, sel)
	if err != nil {
		return nil, err
	}
	out := make([]CodexSetting, len(keys))
	for i, k := range keys {
		out[i] = CodexSetting{Key: k, Value: codexOffValue(k)}
	}
	return out, nil
}

// OpenCodeDeniedPermissions returns the OpenCode permission keys to set to
// "deny" (pattern "*") in both the server and the session rules, sorted.
func OpenCodeDeniedPermissions(sel Selection) ([]string, error) {
	return natives(OpenCode, sel)
}

func tomlValue(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case bool:
		return strconv.FormatBool(x)
	}
	return ""
}

func setOf(names []string) map[string]bool {
	s := make(map[string]bool, len(names))
	for _, n := range names {
		s[n] = true
	}
	return s
}
