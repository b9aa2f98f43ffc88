package decision

import (
	"context"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
)

// testLayers puts the decision on provider test with script, over a
// workflow.yaml that names a real model (which is never called: the asker
// has no HTTP client).
func testLayers(script string, extra string) []Layer {
	return []Layer{layer("workflow.yaml decision", `{"provider": "ollama", "model": "qwen3:8b"}`),
		layer("overrides.decision", `{"provider": "test", "script": `+script+extra+`}`)}
}

// A scripted decision answers by the question's prompt and kind, the
// first match winning; its answer is validated against the question.
func TestScriptedDecisions(t *testing.T) {
	script := `[{"name": "frontend", "when": {"kind": "choice", "promptContains": "misaligned"}, "answer": "frontend", "reason": "layout", "confidence": 0.75},
	  {"when": {"promptMatches": "^Which team"}, "answer": "backend"},
	  {"when": {"kind": "score"}, "answer": 11},
	  {"when": {"kind": "verdict", "promptContains": "deploy"}, "fail": "decision_endpoint", "message": "the server is down"}]`
	a := &Asker{Getenv: func(string) string { return "" }}
	ask := func(q agentproto.Question, extra string) (*agentproto.DecisionResult, *events, error) {
		var ev events
		res, err := a.Decide(context.Background(), Request{Question: q, Layers: testLayers(script, extra)}, ev.emit)
		return res, &ev, err
	}
	q := choiceQ("frontend", "backend")
	q.Prompt = "Which team owns this? The button is misaligned."
	res, ev, err := ask(q, `, "reasons": true`)
	if err != nil || string(res.Answer) != `"frontend"` || res.Confidence != 0.75 || len(res.Reasons) != 1 || res.Reasons[0] != "layout" || res.Provider != "test" || res.Usage != nil {
		t.Fatalf("%+v, %v", res, err)
	}
	if got := ev.types(); got != "decision.started decision.completed" {
		t.Errorf("events %s", got)
	}
	q.Prompt = "Which team owns the database outage?"
	if res, _, err := ask(q, ""); err != nil || string(res.Answer) != `"backend"` || res.Confidence != 1 || res.Reasons != nil {
		t.Errorf("by regexp: %+v, %v", res, err)
	}
	_, _, err = ask(scoreQ(1, 10, nil), "")
	if agentproto.CodeOf(err) != agentproto.CodeDecisionInvalidAnswer || !strings.Contains(err.Error(), "the scripted decision decisions[2]'s answer is invalid: the answer 11 is not from 1 to 10") {
		t.Errorf("invalid scripted answer: %v", err)
	}
	_, _, err = ask(agentproto.Question{Kind: agentproto.QuestionVerdict, Prompt: "May we deploy?"}, "")
	if agentproto.CodeOf(err) != agentproto.CodeDecisionEndpoint || err.Error() != "the server is down (scripted decision decisions[3])" {
		t.Errorf("scripted failure: %v", err)
	}
	_, _, err = ask(agentproto.Question{Kind: agentproto.QuestionVerdict, Prompt: "Done?"}, "")
	if agentproto.CodeOf(err) != agentproto.CodeDecisionConfiguration || !strings.Contains(err.Error(), `no scripted decision matches this verdict question (prompt "Done?")`) {
		t.Errorf("unmatched: %v", err)
	}
}

// A bad script is a configuration error naming the layer, the entry and
// the field.
func TestScriptIsChecked(t *testing.T) {
	for script, want := range map[string]string{
		`[{"answer": "a", "fail": "decision_timeout"}]`:            `overrides.decision.script: [0]: give one of answer, text or fail`,
		`[{"fail": "boom"}]`:                                       `overrides.decision.script: [0]: fail: "boom" is not a decision error code`,
		`[{"answer": 1}, {"when": {"kind": "vote"}, "answer": 1}]`: `overrides.decision.script: [1]: when.kind: "vote" is not choice, score, verdict or text`,
		`[{"when": {"promptMatches": "("}, "answer": 1}]`:          `overrides.decision.script: [0]: when.promptMatches: error parsing regexp`,
		`[{"answer": 1, "confidence": 2}]`:                         `overrides.decision.script: [0]: confidence: must be a number from 0 to 1, got 2`,
		`[{"answer": 1, "replay": true}]`:                          `overrides.decision.script: [0]: unknown field "replay" (known: name, when, answer, reason, confidence, fail, message, text)`,
		`[{"answer": 1}, {"answer": 1, "when": {"kinds": "x"}}]`:   `overrides.decision.script: [1]: when: unknown field "kinds" (known: kind, promptContains, promptMatches)`,
		`[{"answer": 1, "confidence": "high"}]`:                    `overrides.decision.script: [0]: confidence: must be a number, got "high"`,
		`[{"answer": 1, "confidence": 0.5, "reason": 3}]`:          `overrides.decision.script: [0]: reason: must be a string, got 3`,
		`[{"answer": "yes", "when": {"kind": ["verdict"]}}]`:       `overrides.decision.script: [0]: when.kind: must be a string, got array`,
		`[{"answer": "yes", "when": "verdict"}]`:                   `overrides.decision.script: [0]: when: must be a mapping, got "verdict"`,
		`{"answer": "yes"}`:                                        `overrides.decision.script: must be a list of scripted decisions (when, answer, reason, confidence, text, or fail and message), got {"answer": "yes"}`,
		`[{"when": {"kind": "verdict"}, "answer": "maybe"}]`:       `overrides.decision.script: [0]: answer: "maybe" is not yes, no or unsure (when.kind is verdict)`,
		`[{"when": {"kind": "score"}, "answer": "7"}]`:             `overrides.decision.script: [0]: answer: "7" is not a number (when.kind is score)`,
		`[{"when": {"kind": "choice"}, "answer": 2}]`:              `overrides.decision.script: [0]: answer: 2 is not an option id (when.kind is choice)`,
		`[{"answer": true}]`:                                       `overrides.decision.script: [0]: answer: true is not a choice's option id, a score's number, or yes, no or unsure`,
		`[{"when": {"kind": "choice"}, "answer": ""}]`:             `overrides.decision.script: [0]: answer: "" is empty or longer than 200 characters`,
	} {
		_, err := (&Asker{}).Decide(context.Background(), Request{Question: agentproto.Question{Kind: agentproto.QuestionVerdict, Prompt: "x"},
			Layers: testLayers(script, "")}, func(eventapi.Details) {})
		if agentproto.CodeOf(err) != agentproto.CodeDecisionConfiguration || !strings.Contains(errText(err), want) {
			t.Errorf("%s: %v; want %q", script, err, want)
		}
	}
}
