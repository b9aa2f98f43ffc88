package runs

import (
	"strings"
	"testing"
)

// A resumed agent's row says how its replayed conversation went on: by
// transcript (how many exchanges the new session's first prompt carried),
// natively, or not at all (why); the agent.session.continued event of
// its execute says which.
func TestPhasesSayHowAResumedConversationWentOn(t *testing.T) {
	const at = `"timestamp":"2026-12-02T14:00:0`
	lines := []string{
		`{"v":1,"type":"agent.invocation.started",` + at + `0Z","executionId":"top","agentId":"top/a1","ids":{"invocationId":"top/a1/3"},"details":{"name":"gem","promptKind":"text"}}`,
		`{"v":1,"type":"agent.session.continued",` + at + `1Z","executionId":"top","agentId":"top/a1","ids":{"invocationId":"top/a1/3"},"details":{"harness":"gemini","calls":2,"continued":false,"reason":"harness gemini cannot continue a session: the agent starts a new session whose first prompt carries the replayed exchange","byTranscript":true,"exchanges":2}}`,
		`{"v":1,"type":"agent.invocation.started",` + at + `2Z","executionId":"top","agentId":"top/a2","ids":{"invocationId":"top/a2/2"},"details":{"name":"claude","promptKind":"text"}}`,
		`{"v":1,"type":"agent.session.continued",` + at + `3Z","executionId":"top","agentId":"top/a2","ids":{"invocationId":"top/a2/2"},"details":{"harness":"claude-code","sessionId":"s1","calls":1,"continued":true}}`,
		`{"v":1,"type":"agent.invocation.started",` + at + `4Z","executionId":"top","agentId":"top/a3","ids":{"invocationId":"top/a3/1"},"details":{"name":"fresh","promptKind":"text"}}`,
	}
	x := newPhaseIndex()
	if _, err := countEvents(writeEvents(t, []byte(strings.Join(lines, "\n"))), &UsageRollup{}, x); err != nil {
		t.Fatal(err)
	}
	groups := x.result("top", "w")
	if c := groups[0].Agents[0].Conversation; c == nil || !c.ByTranscript || c.Exchanges != 2 {
		t.Fatalf("gem's conversation %+v, want by transcript with 2 exchanges", c)
	}
	var b strings.Builder
	WritePhases(&b, groups)
	out := strings.Split(b.String(), "\n")
	for i, want := range map[int]string{
		2: "conversation continued by transcript, not natively: a new session's first prompt carried 2 exchange(s), 0 left out",
		3: "conversation continued (1 replayed execute(s))",
	} {
		if !strings.HasSuffix(out[i], want) {
			t.Errorf("line %d %q, want it to end with %q", i, out[i], want)
		}
	}
	if strings.Contains(out[4], "conversation") {
		t.Errorf("an agent that resumed nothing says %q", out[4])
	}
}
