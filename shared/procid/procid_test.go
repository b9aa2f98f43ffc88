package procid

import (
	"os"
	"os/exec"
	"testing"
)

func TestParseStatHandlesParenthesesInCommandName(t *testing.T) {
	line := "4242 (we (ird) name) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 10 18446744073709551615"
	state, start, err := parseStat(line)
	if err != nil {
		t.Fatal(err)
	}
	if state != "S" || start != 987654 {
		t.Fatalf("got state %q start %d, want S 987654", state, start)
	}
}

func TestOwnProcessIsAlive(t *testing.T) {
	id, err := Of(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if id.StartTime == 0 {
		t.Fatal("start time 0 for the running test process")
	}
	alive, err := Alive(id)
	if err != nil || !alive {
		t.Fatalf("Alive(self) = %v, %v; want true", alive, err)
	}
}

// A live pid with a different start time is a reused pid: another process.
func TestReusedPIDIsNotTheOwner(t *testing.T) {
	id, err := Of(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	id.StartTime++
	alive, err := Alive(id)
	if err != nil || alive {
		t.Fatalf("Alive(self with other start time) = %v, %v; want false", alive, err)
	}
}

func TestExitedProcessIsGone(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	id, err := Of(cmd.Process.Pid)
	if err != nil {
		// It may already be a zombie, which Of reports as gone: also fine.
		id = Identity{PID: cmd.Process.Pid, StartTime: 1}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	alive, err := Alive(id)
	if err != nil || alive {
		t.Fatalf("Alive(exited) = %v, %v; want false", alive, err)
	}
}
