//go:build unix

package procgroup

import (
	"errors"
	"fmt"
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

// patientWatchdogScript is the patient watchdog. Its pipe's first line is
// the child's pid. When the pipe ends it notes the child's descendants,
// signals the child alone, and waits up to $2 seconds for it to exit,
// noting the descendants it starts meanwhile; then it kills the noted
// descendants still running and the group. Noting them by parent while
// the child lives is what reaches a tool the child runs in a session of
// its own, which neither the group kill nor the child's exit ends (the
// tool's parent becomes init); a noted process counts only while its start
// time matches, so a reused pid is never killed. An exited child may stay
// a zombie for a while (its new parent reaps it when it gets to it), so a
// zombie counts as exited. Without /proc (not Linux) the watchdog asks
// kill -0 whether the child runs and kills only the group. A pipe that ends before the pid came means the starting process
// died while starting the child: the group dies at once.
const patientWatchdogScript = `sig=$1 patience=$2
trap '' TERM INT HUP
stat_of() {
  { read -r line < "/proc/$1/stat"; } 2>/dev/null || return 1
  set -- ${line##*)}
  state=$1 ppid=$2 start=${20}
}
runs() {
  [ -d /proc/self ] || { kill -0 "$1" 2>/dev/null; return; }
  stat_of "$1" && [ "$start" = "$2" ] && [ "$state" != Z ] && [ "$state" != X ]
}
note_descendants() {
  table=
  for f in /proc/[0-9]*/stat; do
    p=${f#/proc/}; p=${p%/stat}
    stat_of "$p" && table="$table $p:$ppid:$start"
  done
  grew=1
  while [ "$grew" = 1 ]; do
    grew=0
    for e in $table; do
      p=${e%%:*}; e=${e#*:}; ppid=${e%%:*}
      case " $noted " in *" $p:"*) continue ;; esac
      case " $child $noted " in *" $ppid "*|*" $ppid:"*) noted="$noted $p:${e#*:}" grew=1 ;; esac
    done
  done
}
read -r child || kill -s KILL 0
read -r _
stat_of "$child" && child_start=$start
noted=
note_descendants
kill -s "$sig" "$child" 2>/dev/null
while [ "$patience" -gt 0 ] && runs "$child" "$child_start"; do
  sleep 1
  patience=$((patience - 1))
  note_descendants
done
for e in $noted; do
  runs "${e%%:*}" "${e#*:}" && kill -s KILL "${e%%:*}" 2>/dev/null
done
kill -s KILL 0`

// watchdog is a running watchdog and the write end of its pipe, which the
// starting process holds until the child has exited.
type watchdog struct {
	cmd   *exec.Cmd
	guard *os.File
}

// startWatchdog starts the watchdog beside the child whose group is pgid,
// as a member of that group: the group's ID stays reserved while the
// watchdog lives, so its signal cannot reach a later group that reused the
// ID. The child must not have been reaped yet (a zombie still holds its
// group). Starting it beside the child, not in front of it, keeps the
// shell off the child's start.
func startWatchdog(pgid int, sig syscall.Signal) (*watchdog, error) {
	return spawnWatchdog(pgid, watchdogScript, signalName(sig), strconv.Itoa(wholeSeconds(watchdogGrace)))
}

// startPatientWatchdog starts the patient watchdog as the leader of a new
// group, for the child to join. Leading it, the watchdog keeps the group's
// ID from being reused while it may signal the group; the child's pid it
// trusts only while the start time it noted matches.
func startPatientWatchdog(sig syscall.Signal, patience time.Duration) (*watchdog, error) {
	return spawnWatchdog(0, patientWatchdogScript, signalName(sig), strconv.Itoa(wholeSeconds(patience)))
}

func spawnWatchdog(pgid int, script string, args ...string) (*watchdog, error) {
	r, w, err := os.Pipe() // close-on-exec: no other child inherits the write end
	if err != nil {
		return nil, err
	}
	defer r.Close()
	cmd := exec.Command("/bin/sh", append([]string{"-c", script, "stratos-watchdog"}, args...)...)
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pgid: pgid}
	if err := cmd.Start(); err != nil {
		w.Close()
		return nil, err
	}
	return &watchdog{cmd: cmd, guard: w}, nil
}

func (w *watchdog) pid() int { return w.cmd.Process.Pid }

// tell gives the patient watchdog the child's pid.
func (w *watchdog) tell(child int) error {
	_, err := fmt.Fprintf(w.guard, "%d\n", child)
	return err
}

// stop closes the pipe (the watchdog's cue, in case the group kill missed
// it) and reaps the watchdog. A nil watchdog is nothing to stop.
func (w *watchdog) stop() {
	if w == nil {
		return
	}
	_ = w.guard.Close()
	_ = w.cmd.Wait()
}

// wholeSeconds rounds d up to whole seconds, which is what sh's sleep
// takes everywhere.
func wholeSeconds(d time.Duration) int {
	return int((d + time.Second - 1) / time.Second)
}

// joinGroup makes cmd's child join the group pgid instead of leading one.
func joinGroup(cmd *exec.Cmd, pgid int) { cmd.SysProcAttr.Pgid = pgid }

// groupOf is the group cmd's child runs in: the one it joined, or its own.
func groupOf(cmd *exec.Cmd) int {
	if cmd.SysProcAttr != nil && cmd.SysProcAttr.Pgid != 0 {
		return cmd.SysProcAttr.Pgid
	}
	return cmd.Process.Pid
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
