package pipeline

import (
	"sync"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"
)

// A build's profile: where a cold build's time goes, logged at debug level
// (STRATOS_LOG_LEVEL=debug, lines "build phase" and "build step"; see
// docs/performance.md). Phases run one after the other and are reported
// with their wall time and CPU time, the build's own and its children's:
// tsc is a child, and so are the definition loaders, whose CPU counts in
// the phase in which they exit (the kernel accounts a child's CPU when it
// is waited for). Steps run inside phases, in parallel for many
// workflows; each is reported as the sum over the workflows of its wall
// time, so it says how much of a phase's work it was.

// phaseClock times the consecutive phases of one build. The zero value is
// not usable; start one with startPhases. A nil clock times nothing.
type phaseClock struct {
	log       hclog.Logger
	workflows int
	wall      time.Time
	cpu       cpuTimes
}

// cpuTimes is the CPU time used so far by this process and by its
// children that have been waited for.
type cpuTimes struct{ self, children time.Duration }

func readCPU() cpuTimes {
	var self, children syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children)
	return cpuTimes{self: rusageCPU(&self), children: rusageCPU(&children)}
}

func rusageCPU(r *syscall.Rusage) time.Duration {
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}

// startPhases starts timing a build of workflows workflows.
func startPhases(log hclog.Logger, workflows int) *phaseClock {
	return &phaseClock{log: log, workflows: workflows, wall: time.Now(), cpu: readCPU()}
}

// done logs the phase that just ended and starts the next one.
func (c *phaseClock) done(phase string) {
	if c == nil {
		return
	}
	now, cpu := time.Now(), readCPU()
	c.log.Debug("build phase", "phase", phase, "workflows", c.workflows,
		"wall", now.Sub(c.wall).Round(time.Millisecond),
		"cpu", (cpu.self - c.cpu.self).Round(time.Millisecond),
		"children_cpu", (cpu.children - c.cpu.children).Round(time.Millisecond))
	c.wall, c.cpu = now, cpu
}

// stepTimes sums the wall time of named steps over every workflow that ran
// them, from any goroutine. A nil stepTimes sums nothing.
type stepTimes struct {
	mu    sync.Mutex
	order []string
	total map[string]time.Duration
	count map[string]int
}

func newStepTimes() *stepTimes {
	return &stepTimes{total: map[string]time.Duration{}, count: map[string]int{}}
}

// start starts timing one run of step; the returned function ends it.
func (s *stepTimes) start(step string) func() {
	if s == nil {
		return func() {}
	}
	t0 := time.Now()
	return func() { s.add(step, time.Since(t0)) }
}

func (s *stepTimes) add(step string, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.total[step]; !ok {
		s.order = append(s.order, step)
	}
	s.total[step] += d
	s.count[step]++
}

// log logs every step's sum, in the order the steps first ran.
func (s *stepTimes) log(log hclog.Logger) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, step := range s.order {
		log.Debug("build step", "step", step, "runs", s.count[step], "total", s.total[step].Round(time.Millisecond))
	}
}
