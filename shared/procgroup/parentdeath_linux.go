package procgroup

import (
	"fmt"
	"os"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// DieWithParent asks the kernel to send sig to this process when the
// process that started it dies, even by SIGKILL: what Options.DeathSignal
// does for the children Stratos starts, for a process started by someone
// else (the SDK's node starts the agent host). A process whose stdin a
// survivor still holds open would otherwise never notice its parent's end.
//
// Linux keeps the request on the calling thread and forgets it when that
// thread exits, so the calling goroutine stays locked to its thread: call
// it from the goroutine that runs the process (main's), first thing.
// parentGone reports that the parent died while the request was being
// made, so no signal will come; a parent dead before the call is beyond
// its reach (the process then already has a new parent).
func DieWithParent(sig syscall.Signal) (parentGone bool, err error) {
	runtime.LockOSThread()
	parent := os.Getppid()
	if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(sig), 0, 0, 0); err != nil {
		return false, fmt.Errorf("set the parent-death signal: %w", err)
	}
	return os.Getppid() != parent, nil
}
