package host

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapters/claudecode"
	"github.com/stratoscli/stratos/stratos-agent/adapters/codex"
	testharness "github.com/stratoscli/stratos/stratos-agent/adapters/test"
	"github.com/stratoscli/stratos/stratos-agent/jsonrpc"
)

const judgeSchema = `{"type":"object","properties":{"approved":{"type":"boolean"}},"required":["approved"],"additionalProperties":false}`

// The second turn expects the feedback prompt: the test harness fails the
// call if the host sent anything else.
const retryingJudge = `  judge:
    harness: test
    structuredOutputRetries: 2
    test:
      turns:
        - value: {approved: "yes"}
        - expect: {promptContains: "- approved: got string, want boolean"}
          value: {approved: true}
        - value: {verdict: 1}
        - value: {approved: 1}
        - value: {approved: []}
        - value: {approved: false}
`

func TestStructuredOutputRetriesSendTheIssuesBack(t *testing.T) {
	f := start(t, retryingJudge, defaults)
	c := call{agent: "j", name: "judge", config: `{"configId":"judge"}`, prompt: `"judge"`, schema: judgeSchema}
	res, err := f.execute(c)
	if err != nil {
		t.Fatal(err)
	}
	if !jsonEq(res.Value, `{"approved":true}`) {
		t.Fatalf("value %s, want the corrected one", res.Value)
	}
	retry := f.waitEvent("agent.structured_output.retry")
	if d := retry.Details.(*eventapi.AgentStructuredOutputRetry); d.Attempt != 2 || d.Of != 3 {
		t.Errorf("retry event details %v, want attempt 2 of 3", retry.Details)
	}

	// Three wrong values in a row: two retries, then the error keeps all three.
	_, err = f.execute(c)
	wantCode(t, err, agentproto.CodeStructuredOutput,
		`agent "judge" returned output that does not match its outputSchema: field "approved": got array, want boolean (after 3 attempts: the validation errors were sent back 2 times)`)
	var re *jsonrpc.RemoteError
	errors.As(err, &re)
	attempts, _ := json.Marshal(re.AgentError().Details["attempts"])
	want := `[{"attempt":1,"message":"agent \"judge\" returned output that does not match its outputSchema: field \"approved\": required field is missing; field \"verdict\": unknown field (not in the schema)","issues":[{"path":"approved","message":"required field is missing"},{"path":"verdict","message":"unknown field (not in the schema)"}]},` +
		`{"attempt":2,"message":"agent \"judge\" returned output that does not match its outputSchema: field \"approved\": got number, want boolean","issues":[{"path":"approved","message":"got number, want boolean"}]},` +
		`{"attempt":3,"message":"agent \"judge\" returned output that does not match its outputSchema: field \"approved\": got array, want boolean","issues":[{"path":"approved","message":"got array, want boolean"}]}]`
	if !jsonEq(attempts, want) {
		t.Errorf("details.attempts = %s\nwant %s", attempts, want)
	}

	// The conversation goes on after the failure.
	res, err = f.execute(c)
	if err != nil || !jsonEq(res.Value, `{"approved":false}`) {
		t.Fatalf("after the failure: %s, %v", res.Value, err)
	}
}

func TestStructuredOutputWithoutRetriesFailsAtOnce(t *testing.T) {
	f := start(t, `  judge:
    harness: test
    test:
      turns:
        - value: {approved: "yes"}
        - value: {approved: true}
`, defaults)
	c := call{agent: "j", name: "judge", config: `{"configId":"judge"}`, prompt: `"judge"`, schema: judgeSchema}
	_, err := f.execute(c)
	wantCode(t, err, agentproto.CodeStructuredOutput, `field "approved": got string, want boolean`)
	var re *jsonrpc.RemoteError
	errors.As(err, &re)
	if re.Message != `agent "judge" returned output that does not match its outputSchema: field "approved": got string, want boolean` {
		t.Errorf("message %q names attempts without retries", re.Message)
	}
	if a, _ := re.AgentError().Details["attempts"].([]any); len(a) != 1 {
		t.Errorf("details.attempts = %v, want the one attempt", re.AgentError().Details["attempts"])
	}
	// Nothing was sent back: the next call gets turn 2.
	res, err := f.execute(c)
	if err != nil || !jsonEq(res.Value, `{"approved":true}`) {
		t.Fatalf("next call: %s, %v", res.Value, err)
	}
}

func TestFeedbackRetriesFollowTheHarness(t *testing.T) {
	h := &Host{harnesses: map[string]adapter.Harness{}}
	for _, reg := range []adapter.Harness{testharness.Registration(), claudecode.Registration(claudecode.Options{}), codex.Registration(codex.Options{})} {
		h.harnesses[reg.Name] = reg
	}
	three := 3
	cases := []struct {
		harness string
		retries *int
		want    int
	}{
		{"test", &three, 3},
		{"codex", &three, 3},
		{"claude-code", &three, 0}, // its StructuredOutput tool retries within the turn
		{"test", nil, 0},
	}
	for _, c := range cases {
		pr := &prepared{config: agentproto.AgentConfig{StructuredOutputRetries: c.retries}, selection: &selector{cands: []candidate{{Harness: c.harness}}}}
		if got := h.feedbackRetries(pr); got != c.want {
			t.Errorf("%s with retries %v: %d, want %d", c.harness, c.retries, got, c.want)
		}
	}
}
