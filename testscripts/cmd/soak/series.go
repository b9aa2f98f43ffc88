package main

import (
	"context"
	"math"
	"slices"
	"sync"
	"time"
)

// Series is a measure taken again and again: X is when (seconds, or a run's
// number), Y the value.
type Series struct {
	X, Y []float64
}

// Add appends one point.
func (s *Series) Add(x, y float64) {
	s.X = append(s.X, x)
	s.Y = append(s.Y, y)
}

// Stats sum a series up: whether it stays flat is what the soak asks.
type Stats struct {
	N                int
	First, Last, Max float64
	// Early and Late are the medians of the first and the last tenth of
	// the series (at least one value each): on a shared machine single
	// values are noisy, and these say whether the series moved.
	Early, Late         float64
	Slope               float64 // least-squares slope, per unit of X
	SecondHalfSlope     float64 // the same over the second half (after warm-up)
	HasSlope, HasSecond bool
}

// Summarize computes the series's stats.
func (s Series) Summarize() Stats {
	n := len(s.Y)
	if n == 0 {
		return Stats{}
	}
	tenth := max(n/10, 1)
	st := Stats{N: n, First: s.Y[0], Last: s.Y[n-1], Max: slices.Max(s.Y), Early: median(s.Y[:tenth]), Late: median(s.Y[n-tenth:])}
	st.Slope, st.HasSlope = slope(s.X, s.Y)
	st.SecondHalfSlope, st.HasSecond = slope(s.X[n/2:], s.Y[n/2:])
	return st
}

// median is the middle value of ys (the mean of the two middle ones).
func median(ys []float64) float64 {
	s := slices.Sorted(slices.Values(ys))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// slope is the least-squares slope of y over x; false when x does not
// vary (fewer than two distinct points).
func slope(x, y []float64) (float64, bool) {
	n := float64(len(x))
	if len(x) < 2 {
		return 0, false
	}
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx, my = mx/n, my/n
	var num, den float64
	for i := range x {
		num += (x[i] - mx) * (y[i] - my)
		den += (x[i] - mx) * (x[i] - mx)
	}
	if den == 0 || math.IsNaN(den) {
		return 0, false
	}
	return num / den, true
}

// usage is what a sample found of one kind: its processes' summed memory
// (now and their peaks) and descriptors, and how many there were.
type usage struct {
	RSSKiB int64
	HWMKiB int64
	FDs    int
	Count  int
}

// byKind sums processes per kind.
func byKind(ps []Proc) map[Kind]usage {
	out := map[Kind]usage{}
	for _, p := range ps {
		u := out[p.Kind]
		u.RSSKiB += p.RSSKiB
		u.HWMKiB += p.HWMKiB
		u.FDs += p.FDs
		u.Count++
		out[p.Kind] = u
	}
	return out
}

// kindSeries is memory, descriptors and process count of one kind over
// time.
type kindSeries struct {
	RSSMiB, FDs, Count Series
}

// sampler samples the processes holding a marker at a fixed interval, per
// kind, until it is stopped.
type sampler struct {
	marker string
	minAge time.Duration
	start  time.Time
	cancel context.CancelFunc
	done   chan struct{}

	mu     sync.Mutex
	series map[Kind]*kindSeries
	peak   map[Kind]usage
	cpu    map[int]Proc // the last sample of each process seen
}

// startSampler samples at once and then every interval until stop, the
// processes that have run at least minAge (a process's start-up is not a
// trend of a long run).
func startSampler(marker string, every, minAge time.Duration) *sampler {
	ctx, cancel := context.WithCancel(context.Background())
	s := &sampler{marker: marker, minAge: minAge, start: time.Now(), cancel: cancel, done: make(chan struct{}),
		series: map[Kind]*kindSeries{}, peak: map[Kind]usage{}, cpu: map[int]Proc{}}
	go s.loop(ctx, every)
	return s
}

func (s *sampler) loop(ctx context.Context, every time.Duration) {
	defer close(s.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		s.sample()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (s *sampler) sample() {
	at := time.Since(s.start).Seconds()
	var ps []Proc
	all := marked(s.marker)
	for _, p := range all {
		if p.Age >= s.minAge {
			ps = append(ps, p)
		}
	}
	use := byKind(ps)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range all {
		s.cpu[p.PID] = p
	}
	for k, u := range use {
		ks := s.series[k]
		if ks == nil {
			ks = &kindSeries{}
			s.series[k] = ks
		}
		ks.RSSMiB.Add(at, float64(u.RSSKiB)/1024)
		ks.FDs.Add(at, float64(u.FDs))
		ks.Count.Add(at, float64(u.Count))
		p := s.peak[k]
		s.peak[k] = usage{RSSKiB: max(p.RSSKiB, u.RSSKiB), HWMKiB: max(p.HWMKiB, u.HWMKiB), FDs: max(p.FDs, u.FDs), Count: max(p.Count, u.Count)}
	}
}

// stop ends the sampling and returns the series and the peak per kind.
func (s *sampler) stop() (map[Kind]*kindSeries, map[Kind]usage) {
	s.cancel()
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.series, s.peak
}

// cpuByKind is the processor time of the processes of each kind as last
// sampled (what a process used after its last sample is not counted), and
// how many processes there were.
func (s *sampler) cpuByKind() map[Kind]cpuUse {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[Kind]cpuUse{}
	for _, p := range s.cpu {
		u := out[p.Kind]
		u.CPU += p.CPU
		u.Processes++
		out[p.Kind] = u
	}
	return out
}

// cpuUse is the processor time of the processes of one kind.
type cpuUse struct {
	CPU       time.Duration
	Processes int
}
