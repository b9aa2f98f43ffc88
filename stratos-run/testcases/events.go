package testcases

import (
	"encoding/json"

	"github.com/stratoscli/stratos/stratos-run/runs"
)

// event is the part of an events.jsonl line the counts need.
type event struct {
	Type    string `json:"type"`
	Label   string `json:"label"`
	Details struct {
		Name     string `json:"name"`
		ConfigID string `json:"configId"`
		Case     string `json:"case"`
		Config   string `json:"config"`
	} `json:"details"`
}

// Counts are what a run record says about agent calls.
type Counts struct {
	// Calls counts agent executes by configId and by configId#label.
	Calls map[string]int `json:"calls"`
	// Served counts the calls each test-script case served, by
	// configuration then case name.
	Served map[string]map[string]int `json:"served,omitempty"`
}

// Count reads a run record's events file. A run that never started an
// agent host has none: no calls.
func Count(eventsFile string) (Counts, error) {
	c := Counts{Calls: map[string]int{}, Served: map[string]map[string]int{}}
	err := runs.EachEvent(eventsFile, func(line []byte) {
		var e event
		if json.Unmarshal(line, &e) != nil {
			return // not an event (runs logs reports such lines)
		}
		switch e.Type {
		case "agent.invocation.started":
			if e.Details.ConfigID != "" {
				c.Calls[e.Details.ConfigID]++
			}
			if e.Details.Name != "" && e.Details.Name != e.Details.ConfigID {
				c.Calls[e.Details.Name]++
			}
		case "test.case":
			config := e.Details.Config
			if config == "" {
				config = e.Label
			}
			if c.Served[config] == nil {
				c.Served[config] = map[string]int{}
			}
			c.Served[config][e.Details.Case]++
		}
	})
	return c, err
}
