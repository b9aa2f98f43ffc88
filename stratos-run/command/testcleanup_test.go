package command

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/shared/contract/worktreeapi"
)

// The cases' worktree warnings are logged once per code, after the cases,
// with the first case that had the code and how many cases did (a code
// twice in one case counts once).
func TestWorktreeWarningsAreLoggedOncePerCode(t *testing.T) {
	var w worktreeWarnings
	head := worktreeapi.Diagnostic{Code: worktreeapi.DiagOriginHeadUnavailable, Message: "no origin/HEAD"}
	w.add("wt / first", []worktreeapi.Diagnostic{head, head})
	w.add("wt / second", []worktreeapi.Diagnostic{{Code: worktreeapi.DiagLockTimeout, Message: "locked"}, head})
	w.add("wt / third", nil)
	var out bytes.Buffer
	w.report(hclog.New(&hclog.LoggerOptions{Output: &out, Level: hclog.Info, DisableTime: true}))
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 ||
		!strings.Contains(lines[0], `no origin/HEAD: code=origin_head_unavailable case="wt / first" cases=2`) ||
		!strings.Contains(lines[1], `locked: code=lock_timeout case="wt / second" cases=1`) {
		t.Errorf("got\n%s", out.String())
	}
}
