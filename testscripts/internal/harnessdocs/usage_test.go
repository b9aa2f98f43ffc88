package harnessdocs

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"

	modelscommand "github.com/stratoscli/stratos/stratos-models/command"
)

// TestCandidatesUsageNamesTheSelectableHarnesses: the --harness flag of
// `stratos-models candidates` lists the harnesses it takes, which are the
// registered harnesses with selection rules (the test harness has none: it
// takes no model), in the registry's order.
func TestCandidatesUsageNamesTheSelectableHarnesses(t *testing.T) {
	var usage string
	for _, c := range modelscommand.Root().Commands {
		for _, f := range c.Flags {
			if c.Name == "candidates" && slices.Contains(f.Names(), "harness") {
				usage = f.(*cli.StringFlag).Usage
			}
		}
	}
	want := slices.Sorted(maps.Keys(builtin(t).Rules()))
	if got := namesInUsage(usage); !slices.Equal(got, want) {
		t.Errorf("stratos-models candidates --harness usage %q names %q; the registered harnesses with selection rules are %q", usage, got, want)
	}
}

// namesInUsage reads "what: a, b or c" as [a b c].
func namesInUsage(usage string) []string {
	_, list, ok := strings.Cut(usage, ": ")
	if !ok {
		return nil
	}
	list = strings.ReplaceAll(list, " or ", ", ")
	return strings.Split(list, ", ")
}

func TestNamesInUsage(t *testing.T) {
	for usage, want := range map[string][]string{
		"explicit harness: claude-code, codex or opencode": {"claude-code", "codex", "opencode"},
		"explicit harness: codex":                          {"codex"},
		"explicit harness":                                 nil,
	} {
		if got := namesInUsage(usage); !slices.Equal(got, want) {
			t.Errorf("namesInUsage(%q) = %q, want %q", usage, got, want)
		}
	}
}
