package runs

import (
	"encoding/json"
	"path/filepath"
	"slices"

	"github.com/stratoscli/stratos/shared/contract/journalapi"
	"github.com/stratoscli/stratos/stratos-run/records"
)

// EventsFile is the run record's event log (written by the agent host and
// the runtime).
const EventsFile = records.EventsFile

// Details is one run in full: its summary, what was run, how it ended and
// how many events it recorded.
type Details struct {
	Run
	Invocation records.Invocation `json:"invocation"`
	Output     json.RawMessage    `json:"output,omitempty"`
	Error      json.RawMessage    `json:"error,omitempty"`
	Events     EventCounts        `json:"events"`
	// Phases are the run's agents grouped by the phase of the workflow
	// code they executed in, in the order of their first execute; nil when
	// no agent executed.
	Phases []PhaseGroup `json:"phases,omitempty"`
	// Usage rolls up the usage events; nil when there are none.
	Usage *UsageRollup `json:"usage,omitempty"`
	// Budget is the run's budget and what was spent against it; nil when
	// the run had none.
	Budget *BudgetUse `json:"budget,omitempty"`
	// Resume is what replaying the journal of the run this one resumes
	// (ResumedFrom) came to; nil until a resumed run ends.
	Resume *journalapi.Report `json:"resume,omitempty"`
	// ResumedBy are the executions that resume this run, oldest first.
	ResumedBy []string `json:"resumedBy,omitempty"`
}

// BudgetUse is a run's budget and its spending, counted as the budget
// counts it: tokens are every token (cache included), and a turn of
// unknown cost counts against tokens only.
type BudgetUse struct {
	Limits records.Budget `json:"limits"`
	Spent  BudgetSpent    `json:"spent"`
}

// BudgetSpent is what a run's agents spent, in the budget's terms: the
// record's own type, which a resumed run's carried spending uses too.
type BudgetSpent = records.Spent

// SpentOf is u in the budget's terms.
func SpentOf(u Usage) BudgetSpent {
	return BudgetSpent{Tokens: u.Tokens.Total(), Turns: u.Turns, UnknownCostTurns: u.Cost.UnknownTurns, USD: u.Cost.USD}
}

// EventCounts counts the complete lines of events.jsonl, in all and by type
// (those that are not events as "(unreadable)").
type EventCounts struct {
	Total  int            `json:"total"`
	ByType map[string]int `json:"byType"`
}

// Show reads the run id in full, reconciling it first.
func (s *Store) Show(id string) (*Details, error) {
	r, err := s.Load(id)
	if err != nil {
		return nil, err
	}
	d := &Details{Run: r}
	if d.Invocation, err = records.ReadInvocation(r.Dir); err != nil {
		return nil, unreadable(id, err)
	}
	if d.Output, err = records.ReadResultFile(r.Dir, records.OutputFile); err != nil {
		return nil, unreadable(id, err)
	}
	if d.Error, err = records.ReadResultFile(r.Dir, records.ErrorFile); err != nil {
		return nil, unreadable(id, err)
	}
	usage, phases := &UsageRollup{}, newPhaseIndex()
	if d.Events, err = countEvents(filepath.Join(r.Dir, EventsFile), usage, phases); err != nil {
		return nil, unreadable(id, err)
	}
	d.Phases = phases.result(r.ExecutionID, r.Workflow)
	if usage.Run.Turns > 0 {
		d.Usage = usage
	}
	if b := d.Invocation.Budget; b != nil {
		d.Budget = &BudgetUse{Limits: *b, Spent: SpentOf(usage.Run)}
	}
	if d.ResumedFrom != "" {
		st, err := records.ReadStatus(r.Dir)
		if err != nil {
			return nil, unreadable(id, err)
		}
		d.Resume = st.Resume
	}
	if d.ResumedBy, err = s.resumedBy(id); err != nil {
		return nil, err
	}
	return d, nil
}

// resumedBy lists the runs that resume run id, oldest first. It reads the
// listing, whose index keeps each run's resumedFrom: a stat per run, not a
// read. A record that cannot be read is left out, as list leaves it out.
func (s *Store) resumedBy(id string) ([]string, error) {
	all, _, err := s.all()
	if err != nil {
		return nil, err
	}
	var by []string
	for _, r := range slices.Backward(all) { // all is newest first
		if r.ResumedFrom == id {
			by = append(by, r.ExecutionID)
		}
	}
	return by, nil
}

// unreadableType counts the lines of events.jsonl that are not events: not
// one JSON object, or not an event of the vocabulary (no type, or details
// that do not fit their kind).
const unreadableType = "(unreadable)"

// countEvents counts the events of a log that may still be growing (a last
// line without its newline is still being written and is not counted), and
// rolls their usage up into usage and their agents into phases.
func countEvents(path string, usage *UsageRollup, phases *phaseIndex) (EventCounts, error) {
	c := EventCounts{ByType: map[string]int{}}
	t := &tail{path: path, max: MaxEventLine}
	defer t.close()
	err := t.drain(func(l eventLine) error {
		c.Total++
		e, why := l.event()
		if why != "" {
			c.ByType[unreadableType]++
			return nil
		}
		c.ByType[e.Type]++
		usage.addEvent(e)
		phases.add(e)
		return nil
	})
	return c, err
}
