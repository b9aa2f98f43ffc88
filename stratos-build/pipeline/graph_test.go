package pipeline

import (
	"slices"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/discovery"
	"github.com/stratoscli/stratos/shared/freshness"
	"github.com/stratoscli/stratos/shared/manifest"
)

// rootOf builds a root whose workflows reference each other as given:
// "a": {"b"} means a imports b's wrapper.
func rootOf(refs map[string][]string) *discovery.Root {
	r := &discovery.Root{Workflows: map[string]*discovery.Workflow{}}
	for name, rs := range refs {
		r.Workflows[name] = &discovery.Workflow{
			Manifest: manifest.Manifest{Name: name},
			Dir:      "/root/" + name,
			Sources:  freshness.Sources{References: rs},
		}
	}
	return r
}

func TestFindCycle(t *testing.T) {
	root := rootOf(map[string][]string{
		"self":   {"self"},
		"ping":   {"pong"},
		"pong":   {"ping"},
		"caller": {"leaf", "ping"},
		"leaf":   nil,
		"mid":    {"leaf"},
		"top":    {"mid", "leaf"},
		"long-a": {"long-b"},
		"long-b": {"long-c"},
		"long-c": {"long-a"},
		"orphan": {"ghost"},
	})
	cases := []struct {
		from string
		want string // "" for no cycle
	}{
		{"self", "self → self"},
		{"ping", "ping → pong → ping"},
		{"pong", "pong → ping → pong"},
		{"caller", "ping → pong → ping"},
		{"leaf", ""},
		{"mid", ""},
		{"top", ""}, // a diamond is no cycle
		{"long-b", "long-b → long-c → long-a → long-b"},
		{"orphan", ""}, // a missing reference is reported elsewhere
	}
	for _, c := range cases {
		t.Run(c.from, func(t *testing.T) {
			got := strings.Join(findCycle(root, root.Workflows[c.from]), " → ")
			if got != c.want {
				t.Errorf("findCycle(%s) = %q, want %q", c.from, got, c.want)
			}
		})
	}
}

func TestCycleDiagnostic(t *testing.T) {
	own := cycleDiagnostic("ping", []string{"ping", "pong", "ping"}).Message
	if !strings.Contains(own, "workflow ping is part of a reference cycle: ping → pong → ping") {
		t.Errorf("own cycle: %s", own)
	}
	required := cycleDiagnostic("caller", []string{"ping", "pong", "ping"}).Message
	if !strings.Contains(required, "workflow caller requires workflows that form a reference cycle: ping → pong → ping") {
		t.Errorf("required cycle: %s", required)
	}
}

func TestDependents(t *testing.T) {
	root := rootOf(map[string][]string{
		"core":  nil,
		"base":  {"core"},
		"app":   {"base"},
		"other": {"base", "core"},
		"solo":  nil,
	})
	names := func(ws []*discovery.Workflow) []string {
		var out []string
		for _, w := range ws {
			out = append(out, w.Manifest.Name)
		}
		slices.Sort(out)
		return out
	}
	if got := names(dependents(root, "core")); !slices.Equal(got, []string{"app", "base", "other"}) {
		t.Errorf("dependents(core) = %v", got)
	}
	if got := names(dependents(root, "app")); len(got) != 0 {
		t.Errorf("dependents(app) = %v, want none", got)
	}
}
