package claudecode

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/proctest"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// A CLI killed with SIGKILL while its Bash tool runs takes the tool's
// processes with it: they are init's then, in the tool's session, which
// the CLI's process group does not reach, and the adapter ends them by the
// session it noted when the tool started. The session stays open (the next
// prompt restarts the CLI), so it is the CLI's death, not Close, that ends
// them. Every process of the bed's CLI, the tool's shell included, has the
// bed's CLAUDE_CONFIG_DIR.
func TestKilledCLILeavesNoToolProcess(t *testing.T) {
	b := newBed(t, `{"turns":[
	  {"match":{"marker":"[long]"},"reply":[{"toolUse":{"name":"Bash","input":{"command":"timeout 4001 tail -f /dev/null","description":"wait"}}}]},
	  {"match":{"marker":"[next]"},"reply":[{"text":"after the crash"}]}
	]}`)
	a := b.adapter(adapter.Spec{}, nil)
	mine := "CLAUDE_CONFIG_DIR=" + filepath.Join(b.Dir, "cfg")
	done := make(chan error, 1)
	go func() { _, err := a.Execute(ctx(t), "[long] wait"); done <- err }()
	waitFor(t, "the tool's tail to run", func() bool {
		return len(proctest.Find(func(p proctest.Process) bool {
			argv := p.Argv()
			return p.HasEnv(mine) && len(argv) > 0 && argv[0] == "tail"
		})) > 0
	})
	s := a.(*session)
	s.mu.Lock()
	cli := s.proc.pid()
	s.mu.Unlock()
	if err := syscall.Kill(cli, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	wantCode(t, <-done, agentproto.CodeExecution)
	if left := proctest.WaitNone(time.Minute, func() []proctest.Process { return proctest.WithEnv(mine) }); len(left) != 0 {
		for _, p := range left {
			_ = syscall.Kill(p.PID, syscall.SIGKILL)
		}
		t.Fatalf("processes of the killed CLI still running:\n%s", proctest.Describe(left))
	}
	if got := mustExecute(t, a, "[next] go on").Text; got != "after the crash" {
		t.Errorf("execute after the crash: %q", got)
	}
}
