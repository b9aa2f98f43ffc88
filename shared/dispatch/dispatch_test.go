package dispatch

import (
	"strings"
	"testing"
)

func TestSuggest(t *testing.T) {
	cases := map[string]string{"lsit": "list", "biuld": "build", "rn": "run", "mod": "models", "work": "worktree", "xyzzy": "", "describ": "describe"}
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
