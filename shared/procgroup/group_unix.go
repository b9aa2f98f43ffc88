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

// watchdogScript is the watchdog: it reads its standard input, a pipe only
// the starting process holds the write end of, so the read ends when that
// process waited for the child or died; then it signals its own group,
// which is the child's.
const watchdogScript = `sig=$1 grace=$2
trap '' TERM INT HUP
read -r _
kill -s "$sig" 0
[ "$sig" = KILL ] || { sleep "$grace"; kill -s KILL 0; }`

// startWatchdog starts the watchdog beside the child whose group is pgid,
// as a member of that group: the group's ID stays reserved while the
// watchdog lives, so its signal cannot reach a later group that reused the
// ID. The child must not have been reaped yet (a zombie still holds its
// group). It returns the watchdog and the pipe's write end, which the
// caller holds until the child has exited. Starting it beside the child,
// not in front of it, keeps the shell off the child's start.
func startWatchdog(pgid int, sig syscall.Signal) (*exec.Cmd, *os.File, error) {
	r, w, err := os.Pipe() // close-on-exec: no other child inherits the write end
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	cmd := exec.Command("/bin/sh", "-c", watchdogScript, "stratos-watchdog",
		signalName(sig), strconv.Itoa(int(watchdogGrace/time.Second)))
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pgid: pgid}
	if err := cmd.Start(); err != nil {
		w.Close()
		return nil, nil, err
	}
	return cmd, w, nil
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
