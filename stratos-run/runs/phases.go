package runs

import (
	"time"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
)

// PhaseGroup is the agents that worked in one phase of the workflow code
// (phase()): a path of nested phases, "review/fix". A child workflow's
// phases nest under the phase its parent executed it in, so its agents
// show where the parent started it. Phase "" holds the agents of no phase.
type PhaseGroup struct {
	Phase  string       `json:"phase"`
	Agents []PhaseAgent `json:"agents"`
}

// PhaseAgent is one agent's executes of one phase: an agent object that
// executed in two phases is in both groups, each with its own executes.
type PhaseAgent struct {
	AgentID     string `json:"agentId"`
	ExecutionID string `json:"executionId"`
	// Workflow is the workflow of the invocation that created the agent,
	// when the record names it (a child's from its start event).
	Workflow string `json:"workflow,omitempty"`
	// Name is the agent's configuration name, as its executes give it.
	Name  string `json:"name"`
	Label string `json:"label,omitempty"`
	// Executes counts the executes started in the phase, Failed those of
	// them that failed.
	Executes int `json:"executes"`
	Failed   int `json:"failed,omitempty"`
	// Status is the last execute's: running, completed or failed.
	Status string `json:"status"`
	// StartedAt is the first execute's start (RFC 3339).
	StartedAt string `json:"startedAt"`
	// BusyMs sums the executes that ended, from their start to their end.
	BusyMs int64 `json:"busyMs"`
	// Conversation is how a resumed run's agent, whose earlier executes
	// were replayed, went on with their conversation (its
	// agent.session.continued event); nil for any other agent.
	Conversation *eventapi.AgentSessionContinued `json:"conversation,omitempty"`
	// Plan is the last plan the agent reported in the phase (an ACP
	// agent's plan.updated: each is the whole plan); nil when none.
	Plan *eventapi.PlanUpdated `json:"plan,omitempty"`
}

// Status of an execute that has not ended.
const statusRunning = "running"

// phaseIndex groups a run's agents by phase from its events, read in the
// order they were written: groups and agents in the order of their first
// execute's start.
type phaseIndex struct {
	groups []*PhaseGroup
	byName map[string]*PhaseGroup
	// agents is each agent's row of each phase, by phase then agent ID.
	agents map[string]map[string]int
	// running is the phase path and start of each execute not yet ended,
	// by invocation ID.
	running map[string]runningExecute
	// execPhase is the phase a child invocation was started in (its
	// parent's, nested), and execWorkflow its workflow, by execution ID.
	execPhase    map[string]string
	execWorkflow map[string]string
}

type runningExecute struct {
	phase   string
	agentID string
	start   time.Time
}

func newPhaseIndex() *phaseIndex {
	return &phaseIndex{byName: map[string]*PhaseGroup{}, agents: map[string]map[string]int{},
		running: map[string]runningExecute{}, execPhase: map[string]string{}, execWorkflow: map[string]string{}}
}

// add reads one event.
func (x *phaseIndex) add(e eventapi.Event) {
	switch d := e.Details.(type) {
	case *eventapi.WorkflowChildStarted:
		x.execPhase[e.ExecutionID] = joinPhase(x.execPhase[d.ParentExecutionID], e.Phase)
		x.execWorkflow[e.ExecutionID] = e.Workflow
	case *eventapi.AgentInvocationStarted:
		x.started(e, d)
	case *eventapi.AgentInvocationCompleted:
		x.completed(e, d)
	case *eventapi.AgentSessionContinued:
		if r, ok := x.running[e.IDs.InvocationID]; ok {
			x.byName[r.phase].Agents[x.agents[r.phase][r.agentID]].Conversation = d
		}
	case *eventapi.PlanUpdated:
		if r, ok := x.running[e.IDs.InvocationID]; ok {
			x.byName[r.phase].Agents[x.agents[r.phase][r.agentID]].Plan = d
		}
	}
}

func (x *phaseIndex) started(e eventapi.Event, d *eventapi.AgentInvocationStarted) {
	phase := joinPhase(x.execPhase[e.ExecutionID], e.Phase)
	a := x.row(phase, e)
	a.Executes++
	a.Status = statusRunning
	if a.Name == "" {
		a.Name = d.Name
	}
	x.running[e.IDs.InvocationID] = runningExecute{phase: phase, agentID: e.AgentID, start: timeOf(e.Timestamp)}
}

func (x *phaseIndex) completed(e eventapi.Event, d *eventapi.AgentInvocationCompleted) {
	r, ok := x.running[e.IDs.InvocationID]
	if !ok {
		return // its start is not in the record
	}
	delete(x.running, e.IDs.InvocationID)
	a := &x.byName[r.phase].Agents[x.agents[r.phase][r.agentID]]
	a.Status = d.Status
	if d.Status == eventapi.StatusFailed {
		a.Failed++
	}
	if end := timeOf(e.Timestamp); !r.start.IsZero() && end.After(r.start) {
		a.BusyMs += end.Sub(r.start).Milliseconds()
	}
}

// row is e's agent's row in phase, made at its first execute there.
func (x *phaseIndex) row(phase string, e eventapi.Event) *PhaseAgent {
	g, ok := x.byName[phase]
	if !ok {
		g = &PhaseGroup{Phase: phase, Agents: []PhaseAgent{}}
		x.byName[phase] = g
		x.groups = append(x.groups, g)
		x.agents[phase] = map[string]int{}
	}
	i, ok := x.agents[phase][e.AgentID]
	if !ok {
		i = len(g.Agents)
		x.agents[phase][e.AgentID] = i
		g.Agents = append(g.Agents, PhaseAgent{AgentID: e.AgentID, ExecutionID: e.ExecutionID,
			Workflow: x.execWorkflow[e.ExecutionID], Label: e.Label, StartedAt: e.Timestamp})
	}
	return &g.Agents[i]
}

// result is the groups, nil when no agent executed; top is the run's
// execution ID and topWorkflow its workflow, which names the top-level
// invocation's agents (their events do not).
func (x *phaseIndex) result(top, topWorkflow string) []PhaseGroup {
	if len(x.groups) == 0 {
		return nil
	}
	out := make([]PhaseGroup, len(x.groups))
	for i, g := range x.groups {
		for j := range g.Agents {
			if g.Agents[j].ExecutionID == top {
				g.Agents[j].Workflow = topWorkflow
			}
		}
		out[i] = *g
	}
	return out
}

func joinPhase(path, name string) string {
	switch {
	case path == "":
		return name
	case name == "":
		return path
	}
	return path + "/" + name
}

// timeOf is an event's time; zero when it does not parse.
func timeOf(ts string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, ts)
	return t
}
