package dispatch

import (
	"strings"
	"testing"
)

func TestSuggest(t *testing.T) {
	cases := map[string]string{"lsit": "list", "biuld": "build", "rn": "run", "mod": "models", "worktre": "worktree", "workr": "worker", "xyzzy": "", "describ": "describe"}
	for in, want := range cases {
		if got := suggest(in); got != want {
			t.Errorf("suggest(%q) = %q, want %q", in, got, want)
		}
	}
}

// provider is implemented (provider status ollama): help lists it and it
// routes to stratos-agent with its subcommand name.
func TestProviderIsRouted(t *testing.T) {
	var help strings.Builder
	Help(&help, "stratos")
	if !strings.Contains(help.String(), "provider") {
		t.Errorf("help does not list provider:\n%s", help.String())
	}
	if r := Routes["provider"]; r.Tool != "stratos-agent" || r.Nested {
		t.Errorf("provider route = %+v", r)
	}
}

// `stratos mcp serve` serves runs, so stratos-run runs it; the rest of
// `stratos mcp` (and `stratos mcp` alone, which prints the group's help)
// stays with stratos-agent.
func TestMCPServeRunsStratosRun(t *testing.T) {
	mcp := Routes["mcp"]
	cases := []struct {
		rest []string
		want string
	}{
		{[]string{"serve", "--http", "127.0.0.1:0"}, "stratos-run"},
		{[]string{"serve", "--help"}, "stratos-run"},
		{[]string{"tools", "demo"}, "stratos-agent"},
		{[]string{"login", "demo", "serve"}, "stratos-agent"},
		{[]string{"--help"}, "stratos-agent"},
		{nil, "stratos-agent"},
	}
	for _, c := range cases {
		if got := mcp.ToolFor(c.rest); got != c.want {
			t.Errorf("stratos mcp %v runs %s, want %s", c.rest, got, c.want)
		}
	}
	if got := Routes["run"].ToolFor([]string{"serve"}); got != "stratos-run" {
		t.Errorf("stratos run serve runs %s, want stratos-run", got)
	}
}
