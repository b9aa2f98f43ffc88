package runs

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"
)

// DefaultTimelineWidth is the width of a timeline chart when none is
// given: the chart does not probe the terminal.
const DefaultTimelineWidth = 100

// The marks of a timeline's bars.
const (
	markBusy   = '='
	markQueued = '.'
	markFailed = 'x'
)

// minBarWidth keeps a chart's bars readable when the row facts take most
// of the width: the lines are then wider than asked.
const minBarWidth = 20

// The widest a name, a harness/model and a phase are written; longer ones
// are cut.
const (
	maxNameWidth  = 28
	maxModelWidth = 28
	maxPhaseWidth = 16
)

var timelineHeaders = []string{"NAME", "HARNESS/MODEL", "PHASE", "START", "DURATION", "TOKENS", "COST", "STATUS"}

// WriteTimeline writes tl as a chart width columns wide: a line per row
// with its facts, then its bar between | and |, on a time axis from the
// run's start to its end. A bar is = where the row ran, . where an agent
// waited for an admission slot and x where an execute failed.
func WriteTimeline(w io.Writer, tl *Timeline, width int) {
	cells := make([][]string, len(tl.Rows))
	widths := make([]int, len(timelineHeaders))
	for i, h := range timelineHeaders {
		widths[i] = len(h)
	}
	for i, row := range tl.Rows {
		cells[i] = rowFacts(row)
		for j, c := range cells[i] {
			widths[j] = max(widths[j], utf8.RuneCountInString(c))
		}
	}
	facts := 0
	for _, n := range widths {
		facts += n + 2
	}
	bar := max(minBarWidth, width-facts-2)
	fmt.Fprintf(w, "timeline  %s  (%c running, %c waiting for admission, %c failed)\n", tl.ExecutionID, markBusy, markQueued, markFailed)
	fmt.Fprintf(w, "%s %s\n", padded(timelineHeaders, widths), axis(tl.DurationMs, bar))
	for i, row := range tl.Rows {
		fmt.Fprintf(w, "%s|%s|\n", padded(cells[i], widths), drawBar(row, tl.DurationMs, bar))
	}
}

// rowFacts are a row's cells, in the order of timelineHeaders.
func rowFacts(row TimelineRow) []string {
	model := row.Harness
	if row.Model != "" {
		model = strings.TrimPrefix(model+"/"+row.Model, "/")
	}
	if row.Kind == RowInvocation {
		model = "workflow"
	}
	tokens, cost := "-", "-"
	if u := row.Usage; u != nil {
		tokens = fmt.Sprint(u.Tokens.Total())
		cost = costText(u.Cost)
	}
	return []string{
		cut(strings.Repeat("  ", row.Depth)+row.title(), maxNameWidth), cut(model, maxModelWidth), cut(row.Phase, maxPhaseWidth),
		"+" + msText(row.StartMs), msText(row.EndMs - row.StartMs), tokens, cost, row.Status,
	}
}

// title names a row in the text timeline as the run page does: an
// agent without a label by its configuration name and the first line of
// what it was first asked, so that a fan-out of one configuration shows
// which agent did what.
func (row TimelineRow) title() string {
	if row.Kind != RowAgent || row.Label != "" || row.Prompt == "" {
		return row.Name
	}
	return row.Name + ": " + row.Prompt
}

// costText is a cost in dollars, "+?" after it when some turns' cost is
// not known.
func costText(c Cost) string {
	text := fmt.Sprintf("$%.4f", c.USD)
	if c.UnknownTurns > 0 {
		text += "+?"
	}
	return text
}

// padded is cells, each padded to its width and followed by two spaces.
func padded(cells []string, widths []int) string {
	var b strings.Builder
	for i, c := range cells {
		b.WriteString(c)
		b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)+2))
	}
	return b.String()
}

// axis is the time axis over bars width columns wide: the offsets of its
// start, quarters and end, each at its column where it fits.
func axis(totalMs int64, width int) string {
	line := []rune(strings.Repeat(" ", width))
	end := msText(totalMs)
	free := width - utf8.RuneCountInString(end) // the end is right-aligned
	next := 0                                   // the first column a label may start at
	for q := range 4 {
		col := q * width / 4
		label := msText(totalMs * int64(q) / 4)
		if col < next || col+len(label) >= free {
			continue
		}
		copy(line[col:], []rune(label))
		next = col + len(label) + 1
	}
	copy(line[free:], []rune(end))
	return string(line)
}

// drawBar is row's bar, width columns for totalMs.
func drawBar(row TimelineRow, totalMs int64, width int) string {
	line := []rune(strings.Repeat(" ", width))
	fill := func(s Span, mark rune) {
		from, to := cellRange(s, totalMs, width)
		for i := from; i < to; i++ {
			line[i] = mark
		}
	}
	for _, s := range row.Busy {
		fill(s, markBusy)
	}
	for _, s := range row.Queued {
		fill(s, markQueued)
	}
	for _, at := range row.FailedAtMs {
		_, to := cellRange(Span{at, at}, totalMs, width)
		line[to-1] = markFailed
	}
	return string(line)
}

// cellRange is the columns [from, to) a span covers: every column whose
// stretch of time it overlaps, and at least one.
func cellRange(s Span, totalMs int64, width int) (int, int) {
	total := max(totalMs, 1)
	from := min(int(s.StartMs*int64(width)/total), width-1)
	to := int((s.EndMs*int64(width) + total - 1) / total)
	return from, min(width, max(to, from+1))
}

// msText is a duration for people: to the tenth of a second under a
// minute, to the second above.
func msText(ms int64) string {
	d := time.Duration(ms) * time.Millisecond
	if d < time.Minute {
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

// cut is s cut to n runes, its end marked with ~ when cut.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "~"
}
