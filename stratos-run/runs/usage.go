package runs

import (
	"encoding/json"
	"math"
)

// Cost provenances: where a cost figure comes from.
const (
	CostReported = "reported" // the harness reported it for every turn counted
	CostPriced   = "priced"   // every turn's cost is known, some priced from the model catalog
	CostUnknown  = "unknown"  // some turn's cost is not known; USD counts the others only
)

// EventUsage is the type of the adapters' per-turn usage events.
const EventUsage = "usage"

// Tokens are token counts, as the adapters' usage events name them.
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
// top-level one and each child, each counting the agents it created) and
// per agent.
type UsageRollup struct {
	Run         Usage             `json:"run"`
	ByExecution map[string]*Usage `json:"byExecution"`
	ByAgent     map[string]*Usage `json:"byAgent"`
}

// turnUsage is the details of one usage event.
type turnUsage struct {
	InputTokens              int64    `json:"inputTokens"`
	OutputTokens             int64    `json:"outputTokens"`
	CacheReadInputTokens     int64    `json:"cacheReadInputTokens"`
	CacheCreationInputTokens int64    `json:"cacheCreationInputTokens"`
	ReasoningOutputTokens    int64    `json:"reasoningOutputTokens"`
	CostUSD                  *float64 `json:"costUsd"`
	// CostProvenance is CostPriced when the host priced the turn; absent
	// when the harness reported CostUSD itself.
	CostProvenance string `json:"costProvenance"`
}

func (u *Usage) add(t turnUsage) {
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
	if t.CostProvenance == CostPriced {
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
// event, and reports whether it was.
func (u *Usage) AddEvent(line []byte) bool {
	var e event
	if json.Unmarshal(line, &e) != nil || e.Type != EventUsage {
		return false
	}
	var t turnUsage
	if json.Unmarshal(e.Details, &t) != nil {
		return false
	}
	u.add(t)
	return true
}

// addEvent counts one events.jsonl event when it reports usage.
func (r *UsageRollup) addEvent(e event) {
	if e.Type != EventUsage {
		return
	}
	var t turnUsage
	if json.Unmarshal(e.Details, &t) != nil {
		return
	}
	r.Run.add(t)
	if r.ByExecution == nil {
		r.ByExecution, r.ByAgent = map[string]*Usage{}, map[string]*Usage{}
	}
	bucket(r.ByExecution, e.ExecutionID).add(t)
	bucket(r.ByAgent, e.AgentID).add(t)
}

func bucket(m map[string]*Usage, key string) *Usage {
	u, ok := m[key]
	if !ok {
		u = &Usage{}
		m[key] = u
	}
	return u
}

// event is the part of an events.jsonl line that counting needs.
type event struct {
	Type        string          `json:"type"`
	AgentID     string          `json:"agentId"`
	ExecutionID string          `json:"executionId"`
	Details     json.RawMessage `json:"details"`
}
