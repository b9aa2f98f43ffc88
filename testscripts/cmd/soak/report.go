package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
)

// report collects what the parts measured (rows of the summary table) and
// the faults they found.
type report struct {
	rows   []row
	faults []fault
	log    io.Writer
}

type row struct{ part, what, value string }

// fault is something the soak found wrong: a process left behind, a lock
// still held, a record unreadable or still running, a run that failed
// without a cause.
type fault struct{ part, kind, detail string }

func (r *report) add(part, what, format string, args ...any) {
	r.rows = append(r.rows, row{part, what, fmt.Sprintf(format, args...)})
}

// fault records a fault and says it on the progress stream at once.
func (r *report) fault(part, kind, format string, args ...any) {
	f := fault{part, kind, fmt.Sprintf(format, args...)}
	r.faults = append(r.faults, f)
	fmt.Fprintf(r.log, "soak: %s: FAULT %s: %s\n", part, kind, f.detail)
}

// series adds a row summing s up: first, last and max value, the medians
// of its first and last tenth, and the slope per `per` units of X (over
// the whole series and its second half).
func (r *report) series(part, what string, s Series, unit string, per float64, perName string) {
	st := s.Summarize()
	if st.N == 0 {
		r.add(part, what, "no samples")
		return
	}
	v := fmt.Sprintf("first %.1f, last %.1f, max %.1f, median of first/last tenth %.1f/%.1f %s", st.First, st.Last, st.Max, st.Early, st.Late, unit)
	if st.HasSlope {
		v += fmt.Sprintf("; slope %+.2f %s/%s", st.Slope*per, unit, perName)
	}
	if st.HasSecond {
		v += fmt.Sprintf(" (second half %+.2f)", st.SecondHalfSlope*per)
	}
	r.add(part, what, "%s (n=%d)", v, st.N)
}

// counts adds a row of counts by key, sorted by key.
func (r *report) counts(part, what string, c map[string]int) {
	if len(c) == 0 {
		r.add(part, what, "none")
		return
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(c)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, c[k]))
	}
	r.add(part, what, "%s", strings.Join(parts, ", "))
}

// write prints the summary table, then the faults by part and kind and one
// line per fault.
func (r *report) write(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PART\tMEASURE\tVALUE")
	for _, x := range r.rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", x.part, x.what, x.value)
	}
	byKind := map[string]int{}
	for _, f := range r.faults {
		byKind[f.part+" "+f.kind]++
	}
	if len(r.faults) == 0 {
		fmt.Fprintln(tw, "all\tfaults\tnone")
	}
	for _, k := range slices.Sorted(maps.Keys(byKind)) {
		part, kind, _ := strings.Cut(k, " ")
		fmt.Fprintf(tw, "%s\tfaults: %s\t%d\n", part, kind, byKind[k])
	}
	_ = tw.Flush()
	for _, f := range r.faults {
		fmt.Fprintf(w, "FAULT %s %s: %s\n", f.part, f.kind, f.detail)
	}
}
