package runs

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-run/records"
)

func TestUsageRollsUpPerRunExecutionAndAgentWithProvenance(t *testing.T) {
	events := strings.Join([]string{
		`{"type":"usage","agentId":"top/agent-1","executionId":"top","details":{"inputTokens":100,"outputTokens":20,"cacheReadInputTokens":50,"reasoningOutputTokens":5,"costUsd":0.01}}`,
		`{"type":"usage","agentId":"top/agent-1","executionId":"top","details":{"inputTokens":10,"outputTokens":2,"cacheCreationInputTokens":7,"costUsd":0.002}}`,
		`{"type":"model.completed","agentId":"top/agent-1","executionId":"top","details":{"usage":{"inputTokens":999}}}`,
		`{"type":"usage","agentId":"top/agent-2","executionId":"child","details":{"inputTokens":1000,"outputTokens":300}}`,
		`{"type":"workflow.log","executionId":"child","workflow":"c","details":{"message":"no usage here"}}`,
		`{"type":"usage","agentId":"top/agent-2","executionId":"child","details":{"inputTokens":1,"outputTokens":1,"costUsd":0.5}}`,
		`{"type":"usage","executionId":"child","ids":{"decisionId":"child/decision-1"},"details":{"inputTokens":40,"outputTokens":4}}`,
		`{"type":"usage","agentId":"top/agent-3","executionId":"child"`, // still being written
	}, "\n")
	path := filepath.Join(t.TempDir(), EventsFile)
	if err := os.WriteFile(path, []byte(events), 0o644); err != nil {
		t.Fatal(err)
	}
	u := &UsageRollup{}
	counts, err := countEvents(path, u, newPhaseIndex())
	if err != nil {
		t.Fatal(err)
	}
	if counts.Total != 7 || counts.ByType[eventapi.TypeUsage] != 5 {
		t.Errorf("counted %+v", counts)
	}
	check := func(name string, got *Usage, turns int, tokens Tokens, usd float64, provenance string, unknown int) {
		t.Helper()
		if got == nil {
			t.Fatalf("%s: no usage", name)
		}
		if got.Turns != turns || got.Tokens != tokens || math.Abs(got.Cost.USD-usd) > 1e-12 || got.Cost.Provenance != provenance || got.Cost.UnknownTurns != unknown {
			t.Errorf("%s = %+v; want %d turns, %+v, $%v %s (%d unknown)", name, got, turns, tokens, usd, provenance, unknown)
		}
	}
	check("agent-1", u.ByAgent["top/agent-1"], 2, Tokens{Input: 110, Output: 22, CacheRead: 50, CacheWrite: 7, Reasoning: 5}, 0.012, CostReported, 0)
	check("agent-2", u.ByAgent["top/agent-2"], 2, Tokens{Input: 1001, Output: 301}, 0.5, CostUnknown, 1)
	check("top", u.ByExecution["top"], 2, Tokens{Input: 110, Output: 22, CacheRead: 50, CacheWrite: 7, Reasoning: 5}, 0.012, CostReported, 0)
	// A decision's usage is its own, and its invocation's.
	check("decision-1", u.ByDecision["child/decision-1"], 1, Tokens{Input: 40, Output: 4}, 0, CostUnknown, 1)
	if _, ok := u.ByAgent[""]; ok || len(u.ByAgent) != 2 {
		t.Errorf("agents %v: a decision is no agent", u.ByAgent)
	}
	check("child", u.ByExecution["child"], 3, Tokens{Input: 1041, Output: 305}, 0.5, CostUnknown, 2)
	check("run", &u.Run, 5, Tokens{Input: 1151, Output: 327, CacheRead: 50, CacheWrite: 7, Reasoning: 5}, 0.512, CostUnknown, 2)
	if got := u.Run.Tokens.Total(); got != 1151+327+50+7 {
		t.Errorf("total tokens %d", got)
	}
}

func TestCostProvenanceIsTheWeakestOfItsTurns(t *testing.T) {
	reported := `{"type":"usage","details":{"inputTokens":1,"costUsd":0.25}}`
	priced := `{"type":"usage","details":{"inputTokens":1,"costUsd":0.125,"costProvenance":"priced"}}`
	unknown := `{"type":"usage","details":{"inputTokens":1}}`
	for _, tc := range []struct {
		name         string
		events       []string
		want         string
		usd          float64
		pricedTurns  int
		unknownTurns int
	}{
		{"reported only", []string{reported, reported}, CostReported, 0.5, 0, 0},
		{"priced only", []string{priced}, CostPriced, 0.125, 1, 0},
		{"reported then priced", []string{reported, priced}, CostPriced, 0.375, 1, 0},
		{"priced then reported", []string{priced, reported}, CostPriced, 0.375, 1, 0},
		{"priced then unknown", []string{priced, unknown}, CostUnknown, 0.125, 1, 1},
		{"unknown then priced", []string{unknown, priced}, CostUnknown, 0.125, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var u Usage
			for _, e := range tc.events {
				u.AddEvent([]byte(e))
			}
			want := Cost{USD: tc.usd, Provenance: tc.want, PricedTurns: tc.pricedTurns, UnknownTurns: tc.unknownTurns}
			if u.Cost != want {
				t.Fatalf("cost = %+v, want %+v", u.Cost, want)
			}
		})
	}
}

func TestShowReportsTheBudgetAndWhatWasSpentAgainstIt(t *testing.T) {
	s := newStore(t)
	r, err := records.Begin(s.Dir, records.Invocation{ExecutionID: "20261202T170000Z-budget01", Workflow: "w", PID: deadPID(t), StartedAt: t0,
		Input: json.RawMessage(`{}`), Budget: &records.Budget{USD: 1, Tokens: 1000}})
	if err != nil {
		t.Fatal(err)
	}
	events := `{"type":"usage","details":{"inputTokens":100,"outputTokens":20,"cacheReadInputTokens":30,"costUsd":0.25}}` + "\n" +
		`{"type":"usage","details":{"inputTokens":50}}` + "\n"
	if err := os.WriteFile(filepath.Join(r.Dir(), EventsFile), []byte(events), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := s.Show("20261202T170000Z-budget01")
	if err != nil {
		t.Fatal(err)
	}
	want := &BudgetUse{Limits: records.Budget{USD: 1, Tokens: 1000}, Spent: BudgetSpent{Tokens: 200, Turns: 2, UnknownCostTurns: 1, USD: 0.25}}
	if !reflect.DeepEqual(d.Budget, want) {
		t.Errorf("budget = %+v; want %+v", d.Budget, want)
	}

	begin(t, s, "20261202T170001Z-nobudget", "w", deadPID(t), t0.Add(time.Second))
	if d, err := s.Show("20261202T170001Z-nobudget"); err != nil || d.Budget != nil {
		t.Errorf("a run without a budget: budget = %+v, %v; want none", d.Budget, err)
	}
}
