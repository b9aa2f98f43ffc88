package testcases

import (
	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/contract/worktreeapi"
	"github.com/stratoscli/stratos/stratos-run/runs"
)

// Counts are what a run record says about agent calls.
type Counts struct {
	// Calls counts the calls the agents' harnesses answered, by configId
	// and by configId#label: each execute, and each structured-output
	// retry the host sent back within one, as the test harness numbers
	// its calls (when: {call}) and counts what each case served.
	Calls map[string]int `json:"calls"`
	// Served counts the calls each test-script case served, by
	// configuration then case name.
	Served map[string]map[string]int `json:"served,omitempty"`
	// Harnesses are the harnesses other than test the run's agents started
	// sessions on, by agent (its name, or its ID when it has none).
	Harnesses map[string]string `json:"harnesses,omitempty"`
	// Refused are the agents the host refused because the case does not
	// put them on the test harness (unscripted_agent), by agent name, with
	// the host's message.
	Refused map[string]string `json:"refused,omitempty"`
}

// Count reads a run record's events file (lines of any vocabulary
// version). A run that never started an agent host has none: no calls.
func Count(eventsFile string) (Counts, error) {
	c := Counts{Calls: map[string]int{}, Served: map[string]map[string]int{}}
	agents := map[string]*eventapi.AgentInvocationStarted{} // by agent ID
	harnesses := map[string]string{}                        // by agent ID
	err := runs.EachEvent(eventsFile, func(e eventapi.Event) {
		switch d := e.Details.(type) {
		case *eventapi.AgentInvocationStarted:
			c.addCall(d)
			agents[e.AgentID] = d
		case *eventapi.AgentStructuredOutputRetry:
			if started := agents[e.AgentID]; started != nil {
				c.addCall(started)
			}
		case *eventapi.TestCase:
			c.addServed(d, e.Label)
		case *eventapi.AgentInvocationCompleted:
			if d.Error != nil && d.Error.Code == agentproto.CodeUnscriptedAgent {
				c.addRefused(agents[e.AgentID], e.AgentID, d.Error.Message)
			}
		case *eventapi.AgentInitializationCompleted:
			if d.Harness != "" && d.Harness != testHarness {
				harnesses[e.AgentID] = d.Harness
			}
		}
	})
	for id, h := range harnesses {
		if c.Harnesses == nil {
			c.Harnesses = map[string]string{}
		}
		name := id
		if started := agents[id]; started != nil && started.Name != "" {
			name = started.Name
		}
		c.Harnesses[name] = h
	}
	return c, err
}

// addRefused notes an agent the host refused, by its name (its ID when
// its start was not recorded).
func (c *Counts) addRefused(started *eventapi.AgentInvocationStarted, id, message string) {
	name := id
	if started != nil && started.Name != "" {
		name = started.Name
	}
	if c.Refused == nil {
		c.Refused = map[string]string{}
	}
	c.Refused[name] = message
}

// testHarness is the test harness's name, as sessions report it.
const testHarness = "test"

func (c Counts) addCall(d *eventapi.AgentInvocationStarted) {
	if d.ConfigID != "" {
		c.Calls[d.ConfigID]++
	}
	if d.Name != "" && d.Name != d.ConfigID {
		c.Calls[d.Name]++
	}
}

// addServed counts a case served to the configuration named by the event,
// or else by the agent's label.
func (c Counts) addServed(d *eventapi.TestCase, label string) {
	config := d.Config
	if config == "" {
		config = label
	}
	if c.Served[config] == nil {
		c.Served[config] = map[string]int{}
	}
	c.Served[config][d.Case]++
}

// Worktree is a worktree a run's agent acquired and the acquire created.
type Worktree struct {
	Name       string
	Repository string
	// Branch is the branch the acquire made, "" when it existed before.
	Branch string
}

// CreatedWorktrees are the worktrees the run's acquires created, each
// once, in the order they were created: what the run added to the
// repositories, as opposed to checkouts it was handed that existed before.
func CreatedWorktrees(eventsFile string) ([]Worktree, error) {
	var out []Worktree
	seen := map[[2]string]bool{}
	err := runs.EachEvent(eventsFile, func(e eventapi.Event) {
		d, ok := e.Details.(*eventapi.WorktreeAcquired)
		if !ok || !d.Created || seen[[2]string{d.Repository, d.Name}] {
			return
		}
		seen[[2]string{d.Repository, d.Name}] = true
		w := Worktree{Name: d.Name, Repository: d.Repository}
		if d.BranchNew {
			w.Branch = d.Branch
		}
		out = append(out, w)
	})
	return out, err
}

// WorktreeWarnings are the warnings of the worktree tool in a run record:
// those of each acquire, and those of each release but worktree_dirty (a
// case's own scripted changes kept at release, which stratos test then
// removes with the worktree).
func WorktreeWarnings(eventsFile string) ([]worktreeapi.Diagnostic, error) {
	var out []worktreeapi.Diagnostic
	err := runs.EachEvent(eventsFile, func(e eventapi.Event) {
		switch d := e.Details.(type) {
		case *eventapi.WorktreeAcquired:
			out = append(out, d.Warnings...)
		case *eventapi.WorktreeReleased:
			if d.ReleaseResult == nil {
				return
			}
			for _, w := range d.Warnings {
				if w.Code != worktreeapi.DiagDirty {
					out = append(out, w)
				}
			}
		}
	})
	return out, err
}
