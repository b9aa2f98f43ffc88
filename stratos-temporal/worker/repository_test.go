package worker

import "testing"

func TestRebaseMovesPathsUnderTheCodesRepository(t *testing.T) {
	for _, c := range []struct{ path, want string }{
		{"/w1/checkouts/r/app", "/w2/checkouts/r/app"},
		{"/w1/checkouts/r/.stratos/workflows/wt", "/w2/checkouts/r/.stratos/workflows/wt"},
		{"/w1/checkouts/r", "/w2/checkouts/r"},
		{"/w1/checkouts/r2/app", "/w1/checkouts/r2/app"},                     // another directory
		{"/home/ada/.stratos/workflows/x", "/home/ada/.stratos/workflows/x"}, // not in the repository
	} {
		if got := rebase(c.path, "/w1/checkouts/r", "/w2/checkouts/r"); got != c.want {
			t.Errorf("rebase(%s) = %s, want %s", c.path, got, c.want)
		}
	}
}
