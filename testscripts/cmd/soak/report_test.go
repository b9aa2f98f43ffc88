package main

import (
	"io"
	"strings"
	"testing"
)

func TestReportTableAndFaults(t *testing.T) {
	r := &report{log: io.Discard}
	var s Series
	s.Add(0, 10)
	s.Add(60, 13)
	r.series("agents", "agent-host RSS", s, "MB", 60, "min")
	r.counts("chaos", "strikes by kind", map[string]int{"node": 2, "agent-host": 1})
	r.fault("chaos", "leftover", "iteration 3: pid 12")
	r.fault("chaos", "leftover", "iteration 9: pid 40")
	var b strings.Builder
	r.write(&b)
	out := b.String()
	for _, want := range []string{
		"PART", "MEASURE", "VALUE",
		"agent-host RSS", "first 10.0, last 13.0, max 13.0, median of first/last tenth 10.0/13.0 MB; slope +3.00 MB/min (n=2)",
		"strikes by kind", "agent-host 1, node 2",
		"faults: leftover", "2\n",
		"FAULT chaos leftover: iteration 3: pid 12\n",
		"FAULT chaos leftover: iteration 9: pid 40\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "faults  none") {
		t.Error("a report with faults says none")
	}
}
