package dispatch

import "testing"

func TestSuggest(t *testing.T) {
	cases := map[string]string{"lsit": "list", "biuld": "build", "rn": "run", "mod": "models", "work": "worktree", "xyzzy": "", "describ": "describe"}
	for in, want := range cases {
		if got := suggest(in); got != want {
			t.Errorf("suggest(%q) = %q, want %q", in, got, want)
		}
	}
}
