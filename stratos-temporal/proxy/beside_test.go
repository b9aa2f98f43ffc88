package proxy

import (
	"encoding/json"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
)

func TestBesideTheCodeTheHostsEventsAreAskedForButNotPassedUp(t *testing.T) {
	p := &Proxy{run: Run{Publish: "https://example.invalid/r.git"}, worktrees: map[string]eventapi.WorktreeAcquired{}}
	params := json.RawMessage(`{"executionId":"x"}`)
	asked, err := json.Marshal(p.askEvents(agentproto.InitializeParams{ExecutionID: "x"}, params))
	if err != nil {
		t.Fatal(err)
	}
	var init agentproto.InitializeParams
	if err := json.Unmarshal(asked, &init); err != nil || !init.Events || init.ExecutionID != "x" {
		t.Fatalf("the host's initialize: %s (%v), want events asked for", asked, err)
	}
	if p.sdkEvents() {
		t.Fatal("events the SDK did not ask for would reach it")
	}

	e := eventapi.Event{Type: eventapi.TypeWorktreeAcquired, AgentID: "run/agent-1",
		Details: &eventapi.WorktreeAcquired{Name: "review", Path: "/w/.stratos/worktrees/review"}}
	line, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	p.noteWorktree(line)
	if wt := p.worktrees["run/agent-1"]; wt.Name != "review" || wt.Path != "/w/.stratos/worktrees/review" {
		t.Fatalf("noted %+v from %s", p.worktrees, line)
	}
}

func TestInTheSubmittingDirectoryTheSDKsInitializeIsUnchanged(t *testing.T) {
	p := &Proxy{worktrees: map[string]eventapi.WorktreeAcquired{}}
	params := json.RawMessage(`{"executionId":"x"}`)
	if got := p.askEvents(agentproto.InitializeParams{ExecutionID: "x"}, params); string(got.(json.RawMessage)) != string(params) {
		t.Fatalf("initialize became %v", got)
	}
	if !p.sdkEvents() {
		t.Fatal("the SDK's own choice was overridden")
	}
	p.noteWorktree(json.RawMessage(`{"type":"worktree.acquired","agentId":"a","details":{"name":"n","path":"/p"}}`))
	if len(p.worktrees) != 0 {
		t.Fatalf("noted %+v with nothing to publish", p.worktrees)
	}
}
