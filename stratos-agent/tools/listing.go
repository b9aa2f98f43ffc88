package tools

// Listing is the JSON document of `stratos tools list --json`.
type Listing struct {
	Harnesses []HarnessListing `json:"harnesses"`
}

// HarnessListing is one harness's selectable and always-on names.
type HarnessListing struct {
	Harness string `json:"harness"`
	// Removal says how removed tools reach the harness.
	Removal string `json:"removal"`
	// Tools are the names that allowedTools/disallowedTools remove, sorted.
	Tools []ListedTool `json:"tools"`
	// AlwaysOn are names the harness keeps whatever the lists say, sorted.
	AlwaysOn []ListedTool `json:"alwaysOn"`
}

// ListedTool is one name and its native counterpart in the harness.
type ListedTool struct {
	Name      string `json:"name"`
	Canonical bool   `json:"canonical"`
	// Native: Claude Code tool names, Codex `--config` overrides
	// (key=value), OpenCode permission keys; for always-on tools the
	// harness tool that keeps them on.
	Native []string `json:"native"`
}

// List returns the listing for the given harnesses, in the order given
// (each must be in the table; see Harness).
func (t *Table) List(hs ...Harness) Listing {
	l := Listing{Harnesses: make([]HarnessListing, 0, len(hs))}
	for _, h := range hs {
		hl := HarnessListing{Harness: string(h), Removal: t.decls[h].Removal,
			Tools: []ListedTool{}, AlwaysOn: []ListedTool{}}
		for _, tl := range t.tools {
			m, ok := tl.In[h]
			if !ok {
				continue
			}
			lt := ListedTool{Name: tl.Name, Canonical: tl.Canonical(), Native: append([]string{}, m.Native...)}
			if m.AlwaysOn {
				hl.AlwaysOn = append(hl.AlwaysOn, lt)
			} else {
				hl.Tools = append(hl.Tools, lt)
			}
		}
		l.Harnesses = append(l.Harnesses, hl)
	}
	return l
}
