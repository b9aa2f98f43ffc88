package claudecode

import (
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/proctest"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// Cancel ends every process of the cancelled tool, also one that is no
// longer in the CLI's process tree. The command leaves `timeout` (which
// leads a process group of its own, with its `tail`) to init the way a
// killed parent does, before the interrupt: Claude Code's own kill walks
// the tree by parent and signals the tool's group, and reaches neither.
// This is the deterministic form of the orphan an interrupt can make
// itself (timeout killed after the CLI listed the tree, its tail
// forked meanwhile).
func TestCancelEndsToolProcessesReparentedOutOfTheTree(t *testing.T) {
	marker := fmt.Sprintf("STRATOS_CANCEL_TEST=%d", rand.Uint64())
	long := "timeout 4000 tail -f /dev/null"
	command := "export " + marker + "; (" + long + " &); " + long
	b := newBed(t, `{"turns":[
	  {"match":{"marker":"[long]"},"reply":[{"toolUse":{"name":"Bash","input":{"command":"`+command+`","description":"wait"}}}]},
	  {"match":{"marker":"[next]"},"reply":[{"text":"after cancel"}]}
	]}`)
	a := b.adapter(adapter.Spec{}, nil)
	tails := func() []proctest.Process {
		return proctest.Find(func(p proctest.Process) bool {
			argv := p.Argv()
			return p.HasEnv(marker) && len(argv) > 0 && argv[0] == "tail"
		})
	}
	done := make(chan error, 1)
	go func() { _, err := a.Execute(ctx(t), "[long] wait"); done <- err }()
	waitFor(t, "both tails to run", func() bool { return len(tails()) == 2 })
	a.Cancel()
	wantCode(t, <-done, agentproto.CodeCancelled)
	mine := func() []proctest.Process { return proctest.WithEnv(marker) }
	if left := proctest.WaitNone(time.Minute, mine); len(left) != 0 {
		for _, p := range left {
			_ = syscall.Kill(p.PID, syscall.SIGKILL)
		}
		t.Fatalf("processes of the cancelled tool still running:\n%s", proctest.Describe(left))
	}
	if got := mustExecute(t, a, "[next] go on").Text; got != "after cancel" {
		t.Errorf("execute after cancel: %q", got)
	}
}
