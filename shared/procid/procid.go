// Package procid identifies processes by pid plus start time, so that a pid
// reused by an unrelated process after the original owner died is not
// mistaken for the original owner.
package procid

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Identity names one process incarnation. StartTime is the kernel's start time
// of the process in clock ticks since boot (field 22 of /proc/<pid>/stat).
type Identity struct {
	PID       int    `json:"pid"`
	StartTime uint64 `json:"startTime"`
}

// procRoot is where the proc filesystem is mounted.
const procRoot = "/proc"

// ErrNoProcess means no live process has the pid.
var ErrNoProcess = errors.New("no such process")

// Of returns the identity of the running process pid. A zombie counts as gone:
// it has exited and only waits to be reaped.
func Of(pid int) (Identity, error) {
	if pid <= 0 {
		return Identity{}, fmt.Errorf("invalid pid %d", pid)
	}
	data, err := os.ReadFile(fmt.Sprintf("%s/%d/stat", procRoot, pid))
	if errors.Is(err, os.ErrNotExist) {
		// Without a proc filesystem (not Linux) nothing can be known: say so
		// rather than declare every owner dead.
		if _, selfErr := os.Stat(procRoot + "/self/stat"); selfErr != nil {
			return Identity{}, fmt.Errorf("process identity needs %s (Linux): %w", procRoot, selfErr)
		}
		return Identity{}, fmt.Errorf("pid %d: %w", pid, ErrNoProcess)
	}
	if err != nil {
		return Identity{}, fmt.Errorf("read process %d status: %w", pid, err)
	}
	state, start, err := parseStat(string(data))
	if err != nil {
		return Identity{}, fmt.Errorf("parse /proc/%d/stat: %w", pid, err)
	}
	if state == "Z" || state == "X" || state == "x" {
		return Identity{}, fmt.Errorf("pid %d has exited (state %s): %w", pid, state, ErrNoProcess)
	}
	return Identity{PID: pid, StartTime: start}, nil
}

// parseStat extracts the state (field 3) and start time (field 22) from the
// text of /proc/<pid>/stat. The command name (field 2) is in parentheses and
// may itself contain spaces and parentheses, so fields are counted from the
// last ')'.
func parseStat(stat string) (state string, start uint64, err error) {
	end := strings.LastIndexByte(stat, ')')
	if end < 0 {
		return "", 0, errors.New("no command name in parentheses")
	}
	fields := strings.Fields(stat[end+1:])
	// fields[0] is field 3 (state), so field 22 is fields[19].
	if len(fields) < 20 {
		return "", 0, fmt.Errorf("%d fields after the command name, want at least 20", len(fields))
	}
	start, err = strconv.ParseUint(fields[19], 10, 64)
	if err != nil {
		return "", 0, fmt.Errorf("start time %q: %w", fields[19], err)
	}
	return fields[0], start, nil
}

// Alive reports whether the process named by id is still running: the pid
// exists, is not a zombie, and started at the recorded time. An error other
// than "no such process" (e.g. /proc unreadable) is returned so that callers
// can treat the owner as possibly live rather than wrongly as gone.
func Alive(id Identity) (bool, error) {
	cur, err := Of(id.PID)
	if errors.Is(err, ErrNoProcess) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return cur.StartTime == id.StartTime, nil
}
