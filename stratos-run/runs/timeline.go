package runs

import (
	"cmp"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
)

// Timeline is a run's workflow invocations and agents over time, from the
// run's first event: when each ran, how long its agents waited for an
// admission slot, and where they failed.
type Timeline struct {
	ExecutionID string `json:"executionId"`
	// StartedAt is the run's first event, where the offsets start: a run
	// that first builds its workflow started its record seconds before
	// (BuildMs after the run's start), which would leave the chart's first
	// part empty.
	StartedAt time.Time `json:"startedAt"`
	BuildMs   int64     `json:"buildMs,omitempty"`
	// DurationMs is the time the rows cover: to the run's end, or to its
	// last event when that is later (a run still running).
	DurationMs int64         `json:"durationMs"`
	Rows       []TimelineRow `json:"rows"`
}

// Kinds of a timeline row.
const (
	RowInvocation = "invocation"
	RowAgent      = "agent"
)

// TimelineRow is one workflow invocation (the run's own or a child's) or
// one agent, its offsets in milliseconds from the run's start.
type TimelineRow struct {
	Kind string `json:"kind"`
	// ID is the invocation's execution ID or the agent's ID.
	ID          string `json:"id"`
	ExecutionID string `json:"executionId"`
	// Depth nests the rows: the run's invocation 0, its agents and
	// children 1, a child's agents 2.
	Depth    int    `json:"depth"`
	Workflow string `json:"workflow,omitempty"`
	// Name is an agent's label, else its configuration name; an
	// invocation's workflow.
	Name string `json:"name"`
	// Agent is an agent's configuration name, Label its label and Prompt
	// the first line of its first prompt given as text (the start event's
	// promptPreview). A page that names an agent by what it was asked names
	// it by Label, else Prompt.
	Agent   string `json:"agent,omitempty"`
	Label   string `json:"label,omitempty"`
	Prompt  string `json:"prompt,omitempty"`
	Harness string `json:"harness,omitempty"`
	Model   string `json:"model,omitempty"`
	// Phase is the phase of workflow code an agent first executed in, or
	// a child was started in (nested under its parent's).
	Phase string `json:"phase,omitempty"`
	// Status is an invocation's end (running until it ends) or an agent's
	// last execute's: running, completed or failed.
	Status  string `json:"status"`
	StartMs int64  `json:"startMs"`
	EndMs   int64  `json:"endMs"`
	// Busy are an agent's executes (an invocation's one span), Queued the
	// parts of them spent waiting for an admission slot, QueuedMs their
	// sum, and FailedAtMs where executes failed.
	Busy       []Span  `json:"busy"`
	Queued     []Span  `json:"queued,omitempty"`
	QueuedMs   int64   `json:"queuedMs"`
	FailedAtMs []int64 `json:"failedAtMs,omitempty"`
	// Usage is the agent's turns, or the turns of the agents an invocation
	// created; nil without any.
	Usage *Usage `json:"usage,omitempty"`
	// Error is why an agent's last failed execute, or a child invocation,
	// failed.
	Error *eventapi.Error `json:"error,omitempty"`
}

// Span is a stretch of a row, in milliseconds from the run's start.
type Span struct {
	StartMs int64 `json:"startMs"`
	EndMs   int64 `json:"endMs"`
}

// Timeline reads the timeline of run id from its events.
func (s *Store) Timeline(id string) (*Timeline, error) {
	r, err := s.Load(id)
	if err != nil {
		return nil, err
	}
	x := newTimelineIndex(r)
	if err := EachEvent(filepath.Join(r.Dir, EventsFile), x.add); err != nil {
		return nil, unreadable(id, err)
	}
	return x.result(), nil
}

// TimelineBuilder builds the timeline of a run whose events are being read,
// a line at a time (as a page following the run reads them), with the
// same rows Store.Timeline reads from the whole record.
type TimelineBuilder struct{ x *timelineIndex }

// NewTimelineBuilder starts the timeline of run r, before any event.
func NewTimelineBuilder(r Run) *TimelineBuilder {
	return &TimelineBuilder{x: newTimelineIndex(r)}
}

// Add reads one line of the run's events.jsonl; a line that is not an
// event is skipped, as Store.Timeline skips it.
func (b *TimelineBuilder) Add(line []byte) {
	if e, why := (eventLine{text: line, size: int64(len(line))}).event(); why == "" {
		b.x.add(e)
	}
}

// Timeline is the timeline of the events added so far.
func (b *TimelineBuilder) Timeline() *Timeline { return b.x.result() }

// timelineIndex builds a timeline from a run's events, read in the order
// they were written.
type timelineIndex struct {
	run   Run
	rows  []*TimelineRow
	byID  map[string]*TimelineRow // by execution ID or agent ID
	usage UsageRollup
	// open is each execute not yet ended, by invocation ID: its row and the
	// start of its admission wait, when it is waiting.
	open map[string]*openExecute
	// execPhase is each invocation's phase, by execution ID.
	execPhase map[string]string
	// first and last are the earliest and the latest event's offset from
	// the run's start; first is -1 before any event.
	first, last int64
}

type openExecute struct {
	row      *TimelineRow
	queuedAt int64 // -1 when not waiting
}

func newTimelineIndex(r Run) *timelineIndex {
	top := &TimelineRow{Kind: RowInvocation, ID: r.ExecutionID, ExecutionID: r.ExecutionID,
		Workflow: r.Workflow, Name: r.Workflow, Status: r.Status, EndMs: r.DurationMs}
	return &timelineIndex{run: r, rows: []*TimelineRow{top}, byID: map[string]*TimelineRow{r.ExecutionID: top},
		open: map[string]*openExecute{}, execPhase: map[string]string{}, first: -1}
}

// add reads one event.
func (x *timelineIndex) add(e eventapi.Event) {
	at, ok := x.offset(e.Timestamp)
	if ok {
		x.last = max(x.last, at)
		if x.first < 0 || at < x.first {
			x.first = at
		}
	}
	x.usage.addEvent(e)
	if ex, ok := x.open[e.IDs.InvocationID]; ok && ex.queuedAt >= 0 && e.Type != eventapi.TypeAgentAdmissionQueued {
		ex.row.Queued = append(ex.row.Queued, Span{ex.queuedAt, at})
		ex.queuedAt = -1
	}
	switch d := e.Details.(type) {
	case *eventapi.WorkflowChildStarted:
		x.childStarted(e, d, at)
	case *eventapi.WorkflowChildCompleted:
		if row, ok := x.byID[e.ExecutionID]; ok && row.Kind == RowInvocation {
			row.Status, row.EndMs, row.Error = d.Status, at, d.Error
		}
	case *eventapi.AgentInvocationStarted:
		x.executeStarted(e, d, at)
	case *eventapi.AgentAdmissionQueued:
		if ex, ok := x.open[e.IDs.InvocationID]; ok && ex.queuedAt < 0 {
			ex.queuedAt = at
		}
	case *eventapi.AgentInvocationCompleted:
		x.executeCompleted(e, d, at)
	case *eventapi.AgentInitializationCompleted:
		if row := x.agent(e); row != nil && d.Harness != "" {
			row.Harness = d.Harness
		}
	case *eventapi.ModelStarted:
		x.model(e, d.Model)
	case *eventapi.ModelCompleted:
		x.model(e, d.Model)
	case *eventapi.Usage:
		x.model(e, d.Model)
	}
}

func (x *timelineIndex) childStarted(e eventapi.Event, d *eventapi.WorkflowChildStarted, at int64) {
	depth := 1
	if parent, ok := x.byID[d.ParentExecutionID]; ok {
		depth = parent.Depth + 1
	}
	phase := joinPhase(x.execPhase[d.ParentExecutionID], e.Phase)
	x.execPhase[e.ExecutionID] = phase
	x.push(&TimelineRow{Kind: RowInvocation, ID: e.ExecutionID, ExecutionID: e.ExecutionID, Depth: depth,
		Workflow: e.Workflow, Name: e.Workflow, Phase: phase, Status: statusRunning, StartMs: at, EndMs: at})
}

func (x *timelineIndex) executeStarted(e eventapi.Event, d *eventapi.AgentInvocationStarted, at int64) {
	row := x.agent(e)
	if row == nil {
		depth := 1
		if inv, ok := x.byID[e.ExecutionID]; ok {
			depth = inv.Depth + 1
		}
		name := e.Label
		if name == "" {
			name = d.Name
		}
		config, _, _ := strings.Cut(d.Name, "#") // the SDK names an agent configId#label
		row = &TimelineRow{Kind: RowAgent, ID: e.AgentID, ExecutionID: e.ExecutionID, Depth: depth,
			Name: name, Agent: config, Label: e.Label, Prompt: d.PromptPreview, Phase: joinPhase(x.execPhase[e.ExecutionID], e.Phase), StartMs: at}
		x.push(row)
	}
	row.Status = statusRunning
	row.Busy = append(row.Busy, Span{at, at})
	row.EndMs = at
	x.open[e.IDs.InvocationID] = &openExecute{row: row, queuedAt: -1}
}

func (x *timelineIndex) executeCompleted(e eventapi.Event, d *eventapi.AgentInvocationCompleted, at int64) {
	ex, ok := x.open[e.IDs.InvocationID]
	if !ok {
		return // its start is not in the record
	}
	delete(x.open, e.IDs.InvocationID)
	row := ex.row
	row.Status = d.Status
	row.Busy[len(row.Busy)-1].EndMs = at
	row.EndMs = max(row.EndMs, at)
	if d.Status == eventapi.StatusFailed {
		row.FailedAtMs = append(row.FailedAtMs, at)
		row.Error = d.Error
	}
}

// model notes the first model an agent's events name.
func (x *timelineIndex) model(e eventapi.Event, model string) {
	if row := x.agent(e); row != nil && row.Model == "" {
		row.Model = model
	}
}

// agent is e's agent's row; nil before its first execute.
func (x *timelineIndex) agent(e eventapi.Event) *TimelineRow {
	if e.AgentID == "" {
		return nil
	}
	return x.byID[e.AgentID]
}

func (x *timelineIndex) push(row *TimelineRow) {
	x.rows = append(x.rows, row)
	x.byID[row.ID] = row
}

// offset is ts in milliseconds from the run's start, 0 when earlier; not
// ok (and 0) when it does not parse, which leaves the chart's bounds as
// they were.
func (x *timelineIndex) offset(ts string) (int64, bool) {
	t := timeOf(ts)
	if t.IsZero() {
		return 0, false
	}
	return max(0, t.Sub(x.run.StartedAt).Milliseconds()), true
}

// result is the rows in order of their start (the order of their first
// event among rows starting at once), the executes and invocations not yet
// ended running to the run's last event. It leaves the index as it was, so
// that more events may follow (TimelineBuilder).
func (x *timelineIndex) result() *Timeline {
	from := max(x.first, 0)
	tl := &Timeline{ExecutionID: x.run.ExecutionID, StartedAt: x.run.StartedAt.Add(time.Duration(from) * time.Millisecond),
		BuildMs: from, DurationMs: max(x.run.DurationMs, x.last) - from, Rows: []TimelineRow{}}
	open := map[*TimelineRow]*openExecute{}
	for _, ex := range x.open {
		open[ex.row] = ex
	}
	for i, r := range x.rows {
		row := *r
		row.Busy, row.Queued = slices.Clone(row.Busy), slices.Clone(row.Queued)
		if i == 0 {
			row.StartMs = from
		}
		if ex, ok := open[r]; ok {
			row.Busy[len(row.Busy)-1].EndMs = x.last
			row.EndMs = max(row.EndMs, x.last)
			if ex.queuedAt >= 0 {
				row.Queued = append(row.Queued, Span{ex.queuedAt, x.last})
			}
		}
		if row.Kind == RowInvocation {
			if row.Status == statusRunning || row.ID == x.run.ExecutionID {
				row.EndMs = max(row.EndMs, x.last)
			}
			row.Busy = []Span{{row.StartMs, row.EndMs}}
			row.Usage = x.usage.ByExecution[row.ID]
		} else {
			row.Usage = x.usage.ByAgent[row.ID]
		}
		for _, q := range row.Queued {
			row.QueuedMs += q.EndMs - q.StartMs
		}
		tl.Rows = append(tl.Rows, row.shifted(from))
	}
	slices.SortStableFunc(tl.Rows, func(a, b TimelineRow) int { return cmp.Compare(a.StartMs, b.StartMs) })
	return tl
}

// shifted is r with its offsets from ms later.
func (r TimelineRow) shifted(ms int64) TimelineRow {
	r.StartMs, r.EndMs = r.StartMs-ms, r.EndMs-ms
	r.Busy, r.Queued = shiftSpans(r.Busy, ms), shiftSpans(r.Queued, ms)
	if r.FailedAtMs != nil {
		at := make([]int64, len(r.FailedAtMs))
		for i, f := range r.FailedAtMs {
			at[i] = f - ms
		}
		r.FailedAtMs = at
	}
	return r
}

func shiftSpans(spans []Span, ms int64) []Span {
	if spans == nil {
		return nil
	}
	out := make([]Span, len(spans))
	for i, s := range spans {
		out[i] = Span{s.StartMs - ms, s.EndMs - ms}
	}
	return out
}
