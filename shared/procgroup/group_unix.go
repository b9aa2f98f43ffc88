//go:build unix

package procgroup

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

const watchdogSupported = true

// watchdogGrace is how long a group the watchdog signalled with something
// milder than SIGKILL gets before SIGKILL.
const watchdogGrace = 5 * time.Second

// watchdogScript runs as the child's first program: it starts the watchdog
// in the background, then replaces itself with the real command, which so
// keeps the child's PID, group, parent-death signal and standard streams.
// The watchdog reads the inherited pipe; the read ends when every write end
// is closed, that is when the parent waited for the child or died.
const watchdogScript = `fd=$1 sig=$2 grace=$3; shift 3
{
	trap '' TERM INT HUP
	read -r _ <&"$fd"
	kill -s "$sig" 0
	[ "$sig" = KILL ] || { sleep "$grace"; kill -s KILL 0; }
} </dev/null >/dev/null 2>&1 &
eval 'exec "$@"' "$fd<&-"`

// addWatchdog rewrites cmd to start through watchdogScript. It returns the
// pipe's read end, which the parent closes once the child started, and its
// write end, which the parent holds until the child has exited.
func addWatchdog(cmd *exec.Cmd, sig syscall.Signal) (r, w *os.File, err error) {
	r, w, err = os.Pipe() // close-on-exec: no other child inherits the write end
	if err != nil {
		return nil, nil, err
	}
	fd := 3 + len(cmd.ExtraFiles)
	cmd.ExtraFiles = append(cmd.ExtraFiles, r)
	target := append([]string{cmd.Path}, cmd.Args[1:]...)
	cmd.Args = append([]string{"sh", "-c", watchdogScript, "stratos-watchdog",
		strconv.Itoa(fd), signalName(sig), strconv.Itoa(int(watchdogGrace / time.Second))}, target...)
	cmd.Path = "/bin/sh"
	return r, w, nil
}

// signalGroup sends sig to the process group pgid; a group with no process
// left is done, not an error.
func signalGroup(pgid int, sig syscall.Signal) error {
	if pgid <= 0 {
		return os.ErrProcessDone
	}
	err := syscall.Kill(-pgid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}

func signalName(sig syscall.Signal) string {
	switch sig {
	case syscall.SIGTERM:
		return "TERM"
	case syscall.SIGINT:
		return "INT"
	case syscall.SIGHUP:
		return "HUP"
	default:
		return "KILL"
	}
}
