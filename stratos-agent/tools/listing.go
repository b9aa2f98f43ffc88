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

// List returns the listing for the given harnesses, in the order given.
func List(hs ...Harness) Listing {
	l := Listing{Harnesses: make([]HarnessListing, 0, len(hs))}
	table := Table()
	for _, h := range hs {
		hl := HarnessListing{Harness: string(h), Removal: h.removalMechanism(),
			Tools: []ListedTool{}, AlwaysOn: []ListedTool{}}
		for _, t := range table {
			m, ok := t.In[h]
			if !ok {
				continue
			}
			lt := ListedTool{Name: t.Name, Canonical: t.Canonical(), Native: listedNative(h, m)}
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

func listedNative(h Harness, m Mapping) []string {
	out := make([]string, len(m.Native))
	for i, n := range m.Native {
		if h == Codex && !m.AlwaysOn {
			n = CodexSetting{Key: n, Value: codexOffValue(n)}.Override()
		}
		out[i] = n
	}
	return out
}
