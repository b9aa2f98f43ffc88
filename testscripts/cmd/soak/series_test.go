package main

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestSummarizeGrowingSeries(t *testing.T) {
	var s Series
	for i := range 10 {
		s.Add(float64(i), 5+2*float64(i))
	}
	st := s.Summarize()
	if st.N != 10 || st.First != 5 || st.Last != 23 || st.Max != 23 || st.Early != 5 || st.Late != 23 {
		t.Errorf("stats = %+v, want n 10, first 5, last 23, max 23, a tenth of one value each", st)
	}
	if !st.HasSlope || !near(st.Slope, 2) || !st.HasSecond || !near(st.SecondHalfSlope, 2) {
		t.Errorf("slopes = %v, %v, want 2 and 2", st.Slope, st.SecondHalfSlope)
	}
}

// A series that grows while warming up and is flat after has a whole
// slope above zero and a flat second half: the report shows both.
func TestSummarizeWarmUpThenFlat(t *testing.T) {
	var s Series
	for i, y := range []float64{1, 5, 9, 10, 10, 10, 10, 10} {
		s.Add(float64(i), y)
	}
	st := s.Summarize()
	if st.Slope <= 0 || !near(st.SecondHalfSlope, 0) || st.Max != 10 {
		t.Errorf("stats = %+v, want a positive slope, a flat second half, max 10", st)
	}
}

// One noisy value does not move the medians of the tenths.
func TestSummarizeTenthsResistOutliers(t *testing.T) {
	var s Series
	for i := range 40 {
		y := 100.0
		if i == 0 || i == 39 {
			y = 900
		}
		if i == 1 || i == 38 {
			y = 110
		}
		s.Add(float64(i), y)
	}
	if st := s.Summarize(); st.Early != 105 || st.Late != 105 || st.First != 900 || st.Max != 900 {
		t.Errorf("stats = %+v, want tenths' medians 105 and 105 beside first and max 900", st)
	}
}

func TestSummarizeDegenerateSeries(t *testing.T) {
	if st := (Series{}).Summarize(); st.N != 0 || st.HasSlope {
		t.Errorf("empty series: %+v", st)
	}
	var one Series
	one.Add(3, 7)
	if st := one.Summarize(); st.N != 1 || st.First != 7 || st.HasSlope || st.HasSecond {
		t.Errorf("one point: %+v, want no slope", st)
	}
	var same Series
	same.Add(1, 1)
	same.Add(1, 2)
	if _, ok := slope(same.X, same.Y); ok {
		t.Error("a slope over one x value")
	}
}

func TestByKindSums(t *testing.T) {
	got := byKind([]Proc{
		{PID: 1, Kind: KindHarness, RSSKiB: 100, HWMKiB: 120, FDs: 10},
		{PID: 2, Kind: KindHarness, RSSKiB: 50, HWMKiB: 50, FDs: 5},
		{PID: 3, Kind: KindAgentHost, RSSKiB: 7, HWMKiB: 8, FDs: 9},
	})
	if got[KindHarness] != (usage{RSSKiB: 150, HWMKiB: 170, FDs: 15, Count: 2}) || got[KindAgentHost] != (usage{RSSKiB: 7, HWMKiB: 8, FDs: 9, Count: 1}) {
		t.Errorf("byKind = %+v", got)
	}
}
