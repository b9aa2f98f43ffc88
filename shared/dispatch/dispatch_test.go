package dispatch

import (
	"io"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/clierr"
)

func TestSuggest(t *testing.T) {
	cases := map[string]string{"lsit": "list", "biuld": "build", "rn": "run", "mod": "models", "work": "worktree", "xyzzy": "", "describ": "describe"}
	for in, want := range cases {
		if got := suggest(in); got != want {
			t.Errorf("suggest(%q) = %q, want %q", in, got, want)
		}
	}
}

// The help lists commands users can run; provider is a stub in stratos-agent
// that answers "not implemented", so it is neither listed nor dispatched.
func TestHelpOmitsUnimplementedProvider(t *testing.T) {
	var help strings.Builder
	Help(&help, "stratos")
	if strings.Contains(help.String(), "provider") {
		t.Errorf("help advertises provider:\n%s", help.String())
	}
	var stderr strings.Builder
	if code := Main([]string{"stratos", "provider"}, io.Discard, &stderr); code != clierr.ExitUsage {
		t.Errorf("stratos provider exited %d, want %d (unknown command)", code, clierr.ExitUsage)
	}
	if !strings.Contains(stderr.String(), `unknown command "provider"`) {
		t.Errorf("stderr = %q, want it to call provider unknown", stderr.String())
	}
}
