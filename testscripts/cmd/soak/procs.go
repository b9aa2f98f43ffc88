package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/stratoscli/stratos/shared/proctest"
)

// Kind is the part a process plays in a run, told from its command line.
type Kind string

// The processes of a run's tree. A run is stratos-run (the dispatcher
// execs it), the node runtime, the agent host node starts, the harness CLIs
// the host starts (each in a group led by a watchdog shell), the stdio MCP
// servers of direct clients (started by the host), and, when the workflow
// is not built, stratos-build and the compiler.
const (
	KindRun       Kind = "stratos-run"
	KindNode      Kind = "node"
	KindAgentHost Kind = "agent-host"
	KindHarness   Kind = "harness-cli"
	KindMCP       Kind = "mcp-server"
	KindWatchdog  Kind = "watchdog"
	KindBuild     Kind = "stratos-build"
	KindCompiler  Kind = "tsc"
	KindOther     Kind = "other"
)

// harnessBinaries are the base names of the harness CLIs' executables.
var harnessBinaries = []string{"claude", "codex", "opencode"}

// classify tells a process's kind from its arguments.
func classify(argv []string) Kind {
	if len(argv) == 0 {
		return KindOther
	}
	base := filepath.Base(argv[0])
	switch {
	case base == "stratos-run":
		return KindRun
	case base == "stratos-agent" && len(argv) > 1 && argv[1] == "serve":
		return KindAgentHost
	case base == "stratos-build":
		return KindBuild
	case base == "stratos-fakemcp":
		return KindMCP
	case base == "tsc":
		return KindCompiler
	case slices.Contains(harnessBinaries, base):
		return KindHarness
	case slices.Contains(argv, "stratos-watchdog"):
		// The watchdogs are shell scripts: sh -c <script> stratos-watchdog …
		return KindWatchdog
	case base == "node" && slices.ContainsFunc(argv[1:], func(a string) bool { return strings.HasSuffix(a, "/runner.js") }):
		return KindNode
	}
	return KindOther
}

// Proc is a process of a run as sampled: its kind, resident memory (now
// and its peak so far) and open file descriptors.
type Proc struct {
	PID    int
	Kind   Kind
	RSSKiB int64
	HWMKiB int64
	FDs    int
	// Age is how long the process has run, CPU the processor time it has
	// used (user and system).
	Age, CPU time.Duration
}

// forkWindow is how young a child showing its parent's command line must
// be to count as a fork about to exec (a moment, longer under load).
const forkWindow = time.Second

// marked lists the running processes whose environment holds marker
// (KEY=value), which every process of a run inherits, with their memory
// and descriptors. A process that ends while it is read is left out, and
// so is a child between its fork and its exec: it still shows its
// parent's command line, which would count its parent twice (a child that
// runs its parent's command line for longer is kept).
func marked(marker string) []Proc {
	var out []Proc
	argvs := map[int][]string{}
	parents := map[int]int{}
	for _, p := range proctest.WithEnv(marker) {
		argv := p.Argv()
		mem, ok := memoryKiB(p.PID)
		if argv == nil || !ok {
			continue
		}
		fds, err := os.ReadDir(filepath.Join("/proc", strconv.Itoa(p.PID), "fd"))
		if err != nil {
			continue
		}
		st, ok := readStat(p.PID)
		if !ok {
			continue
		}
		argvs[p.PID], parents[p.PID] = argv, st.PPID
		out = append(out, Proc{PID: p.PID, Kind: classify(argv), RSSKiB: mem["VmRSS"], HWMKiB: mem["VmHWM"], FDs: len(fds), Age: st.Age, CPU: st.CPU})
	}
	return slices.DeleteFunc(out, func(p Proc) bool {
		parent, ok := argvs[parents[p.PID]]
		return ok && p.Age < forkWindow && slices.Equal(parent, argvs[p.PID])
	})
}

// memoryKiB reads VmRSS (resident now) and VmHWM (the peak resident size
// so far) from /proc/<pid>/status; false unless both were read.
func memoryKiB(pid int) (map[string]int64, bool) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return nil, false
	}
	out := map[string]int64{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || (name != "VmRSS" && name != "VmHWM") {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 {
			return nil, false
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return nil, false
		}
		out[name] = n
	}
	return out, len(out) == 2
}

// clockTicks is the unit of /proc's start times (USER_HZ, 100 on Linux).
const clockTicks = 100

// procStat is what the soak reads of /proc/<pid>/stat.
type procStat struct {
	PPID int
	// Age is how long the process has run (the system's uptime less its
	// start time), CPU the processor time it has used.
	Age, CPU time.Duration
}

// readStat reads /proc/<pid>/stat: ppid, utime, stime and starttime are
// its fields 4, 14, 15 and 22 (times in clock ticks), counted after the
// command name, which may hold spaces.
func readStat(pid int) (procStat, bool) {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return procStat{}, false
	}
	up, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return procStat{}, false
	}
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	upFields := strings.Fields(string(up))
	if len(fields) < 20 || len(upFields) == 0 {
		return procStat{}, false
	}
	var n [4]int64
	for i, f := range []int{1, 11, 12, 19} {
		if n[i], err = strconv.ParseInt(fields[f], 10, 64); err != nil {
			return procStat{}, false
		}
	}
	uptime, err := strconv.ParseFloat(upFields[0], 64)
	if err != nil {
		return procStat{}, false
	}
	tick := func(n int64) time.Duration { return time.Duration(n) * time.Second / clockTicks }
	return procStat{PPID: int(n[0]), Age: time.Duration(uptime*float64(time.Second)) - tick(n[3]), CPU: tick(n[1] + n[2])}, true
}

// availableKiB is the machine's MemAvailable (/proc/meminfo): how much
// memory can still be had without swapping.
func availableKiB() (int64, bool) {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, "MemAvailable:"); ok {
			f := strings.Fields(rest)
			if len(f) == 0 {
				return 0, false
			}
			n, err := strconv.ParseInt(f[0], 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// ofKind returns the processes of kind k, in pid order.
func ofKind(ps []Proc, k Kind) []Proc {
	var out []Proc
	for _, p := range ps {
		if p.Kind == k {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b Proc) int { return a.PID - b.PID })
	return out
}
