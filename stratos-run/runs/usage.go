package runs

import (
	"math"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
)

// Cost provenances of a roll-up: where its cost figure comes from. A
// turn's own provenance is eventapi's (reported or priced); a roll-up's is
// the weakest of its turns'.
const (
	CostReported = eventapi.CostReported // the harness reported it for every turn counted
	CostPriced   = eventapi.CostPriced   // every turn's cost is known, some priced from the model catalog
	CostUnknown  = "unknown"             // some turn's cost is not known; USD counts the others only
)

// Tokens are the token counts of a roll-up.
type Tokens struct {
	Input      int64 `json:"input"`
	Output     int64 `json:"output"`
	CacheRead  int64 `json:"cacheRead"`
	CacheWrite int64 `json:"cacheWrite"`
	Reasoning  int64 `json:"reasoning"`
}

// Cost is a cost in US dollars and where it comes from.
type Cost struct {
	USD        float64 `json:"usd"`
	Provenance string  `json:"provenance"`
	// PricedTurns counts the turns the host priced from the catalog's
	// Models.dev rates because their harness reported no cost.
	PricedTurns int `json:"pricedTurns,omitempty"`
	// UnknownTurns counts the turns whose cost is unknown (not in USD).
	UnknownTurns int `json:"unknownTurns,omitempty"`
}

// Usage is the usage of some turns: how many, their tokens and cost.
type Usage struct {
	Turns  int    `json:"turns"`
	Tokens Tokens `json:"tokens"`
	Cost   Cost   `json:"cost"`
}

// UsageRollup is a run's usage: in all, per workflow invocation (the
// top-level one and each child, each counting the agents it created and
// the decisions it asked), per agent and per decision.
type UsageRollup struct {
	Run         Usage             `json:"run"`
	ByExecution map[string]*Usage `json:"byExecution"`
	ByAgent     map[string]*Usage `json:"byAgent"`
	// ByDecision is keyed by ids.decisionId; absent without decisions.
	ByDecision map[string]*Usage `json:"byDecision,omitempty"`
}

// add counts one turn.
func (u *Usage) add(t *eventapi.Usage) {
	if u.Turns == 0 {
		u.Cost.Provenance = CostReported
	}
	u.Turns++
	u.Tokens.Input += t.InputTokens
	u.Tokens.Output += t.OutputTokens
	u.Tokens.CacheRead += t.CacheReadInputTokens
	u.Tokens.CacheWrite += t.CacheCreationInputTokens
	u.Tokens.Reasoning += t.ReasoningOutputTokens
	if t.CostUSD == nil {
		u.Cost.UnknownTurns++
		u.Cost.Provenance = CostUnknown
		return
	}
	if t.CostProvenance == eventapi.CostPriced {
		u.Cost.PricedTurns++
		if u.Cost.Provenance == CostReported {
			u.Cost.Provenance = CostPriced
		}
	}
	// Rounded to 1e-10 dollars, so that sums of decimal prices read as
	// decimals (0.025 + 0.005 is 0.03, not 0.030000000000000002).
	u.Cost.USD = math.Round((u.Cost.USD+*t.CostUSD)*1e10) / 1e10
}

// Total is every token counted: input, output, cache reads and writes
// (reasoning tokens are part of output).
func (t Tokens) Total() int64 { return t.Input + t.Output + t.CacheRead + t.CacheWrite }

// AddEvent adds the usage of one events.jsonl line to u when it is a usage
// event (of any vocabulary version), and reports whether it was.
func (u *Usage) AddEvent(line []byte) bool {
	e, err := eventapi.Decode(line)
	if err != nil {
		return false
	}
	t, ok := e.Details.(*eventapi.Usage)
	if ok {
		u.add(t)
	}
	return ok
}

// addEvent counts one event when it reports usage.
func (r *UsageRollup) addEvent(e eventapi.Event) {
	t, ok := e.Details.(*eventapi.Usage)
	if !ok {
		return
	}
	r.Run.add(t)
	if r.ByExecution == nil {
		r.ByExecution, r.ByAgent = map[string]*Usage{}, map[string]*Usage{}
	}
	bucket(r.ByExecution, e.ExecutionID).add(t)
	switch {
	case e.AgentID == "" && e.IDs.DecisionID != "":
		if r.ByDecision == nil {
			r.ByDecision = map[string]*Usage{}
		}
		bucket(r.ByDecision, e.IDs.DecisionID).add(t)
	default:
		bucket(r.ByAgent, e.AgentID).add(t)
	}
}

func bucket(m map[string]*Usage, key string) *Usage {
	u, ok := m[key]
	if !ok {
		u = &Usage{}
		m[key] = u
	}
	return u
}
