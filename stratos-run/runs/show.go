package runs

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"

	"github.com/stratoscli/stratos/stratos-run/records"
)

// EventsFile is the run record's event log (written by the agent host).
const EventsFile = "events.jsonl"

// Details is one run in full: its summary, what was run, how it ended and
// how many events it recorded.
type Details struct {
	Run
	Invocation records.Invocation `json:"invocation"`
	Output     json.RawMessage    `json:"output,omitempty"`
	Error      json.RawMessage    `json:"error,omitempty"`
	Events     EventCounts        `json:"events"`
	// Usage rolls up the usage events; nil when there are none.
	Usage *UsageRollup `json:"usage,omitempty"`
	// Budget is the run's budget and what was spent against it; nil when
	// the run had none.
	Budget *BudgetUse `json:"budget,omitempty"`
}

// BudgetUse is a run's budget and its spending, counted as the budget
// counts it: tokens are every token (cache included), and a turn of
// unknown cost counts against tokens only.
type BudgetUse struct {
	Limits records.Budget `json:"limits"`
	Spent  BudgetSpent    `json:"spent"`
}

// BudgetSpent is what a run's agents spent, in the budget's terms.
type BudgetSpent struct {
	Tokens           int64   `json:"tokens"`
	Turns            int     `json:"turns"`
	UnknownCostTurns int     `json:"unknownCostTurns"`
	USD              float64 `json:"usd"`
}

// SpentOf is u in the budget's terms.
func SpentOf(u Usage) BudgetSpent {
	return BudgetSpent{Tokens: u.Tokens.Total(), Turns: u.Turns, UnknownCostTurns: u.Cost.UnknownTurns, USD: u.Cost.USD}
}

// EventCounts counts the complete lines of events.jsonl, in all and by type.
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
	if d.Output, err = optionalFile(r.Dir, records.OutputFile); err != nil {
		return nil, unreadable(id, err)
	}
	if d.Error, err = optionalFile(r.Dir, records.ErrorFile); err != nil {
		return nil, unreadable(id, err)
	}
	usage := &UsageRollup{}
	if d.Events, err = countEvents(filepath.Join(r.Dir, EventsFile), usage); err != nil {
		return nil, unreadable(id, err)
	}
	if usage.Run.Turns > 0 {
		d.Usage = usage
	}
	if b := d.Invocation.Budget; b != nil {
		d.Budget = &BudgetUse{Limits: *b, Spent: SpentOf(usage.Run)}
	}
	return d, nil
}

// optionalFile returns the JSON in dir/name, nil when there is none.
func optionalFile(dir, name string) (json.RawMessage, error) {
	data, err := os.ReadFile(filepath.Join(dir, name))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !json.Valid(data) {
		return nil, errors.New(name + " is not valid JSON")
	}
	return json.RawMessage(data), nil
}

// countEvents counts the events of a log that may still be growing (a last
// line without its newline is still being written and is not counted), and
// rolls their usage up into usage.
func countEvents(path string, usage *UsageRollup) (EventCounts, error) {
	c := EventCounts{ByType: map[string]int{}}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			return c, ignoreEOF(err)
		}
		var e event
		if json.Unmarshal(line, &e) != nil || e.Type == "" {
			e.Type = "(unreadable)"
		}
		usage.addEvent(e)
		c.Total++
		c.ByType[e.Type]++
	}
}
