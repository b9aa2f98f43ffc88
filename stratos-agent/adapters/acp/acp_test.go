package acp

import (
	"encoding/json"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
)

func TestChoosePicksTheKindOrItsFamily(t *testing.T) {
	gemini := []permissionOption{{"proceed_always", "Allow for this session", "allow_always"}, {"proceed_once", "Allow", "allow_once"}, {"cancel", "Reject", "reject_once"}}
	if got := choose(gemini, optionAllowOnce).Outcome; got.Outcome != "selected" || got.OptionID != "proceed_once" {
		t.Errorf("allow: %+v", got)
	}
	if got := choose(gemini, optionRejectOnce).Outcome; got.OptionID != "cancel" {
		t.Errorf("reject: %+v", got)
	}
	always := []permissionOption{{"a", "", "allow_always"}, {"r", "", "reject_always"}}
	if got := choose(always, optionRejectOnce).Outcome; got.OptionID != "r" {
		t.Errorf("reject without reject_once: %+v", got)
	}
	if got := choose(nil, optionAllowOnce).Outcome; got.Outcome != "cancelled" {
		t.Errorf("no options: %+v", got)
	}
}

func TestValueOfReadsTheFinalMessage(t *testing.T) {
	for _, text := range []string{`{"a":1}`, "```json\n{\"a\":1}\n```", "  {\"a\":1}\n"} {
		res, err := valueOf(text, "x", "h")
		if err != nil || string(res.Value) != `{"a":1}` {
			t.Errorf("%q: %s, %v", text, res.Value, err)
		}
	}
	if _, err := valueOf("here you go: {", "x", "h"); agentproto.CodeOf(err) != agentproto.CodeStructuredOutput {
		t.Errorf("no JSON: %v", err)
	}
}

func TestToolInputAndOutput(t *testing.T) {
	u := sessionUpdate{Title: "echo hi", Content: json.RawMessage(`[{"type":"content","content":{"type":"text","text":"hi"}}]`)}
	if got := string(inputOf(u)); got != `{"title":"echo hi"}` {
		t.Errorf("input without rawInput: %s", got)
	}
	if got := string(outputOf(u)); got != `"hi"` {
		t.Errorf("output from content: %s", got)
	}
	u.RawInput, u.RawOutput = json.RawMessage(`{"command":"echo hi"}`), json.RawMessage(`{"stdout":"hi"}`)
	if string(inputOf(u)) != `{"command":"echo hi"}` || string(outputOf(u)) != `{"stdout":"hi"}` {
		t.Errorf("raw input/output not used: %s %s", inputOf(u), outputOf(u))
	}
}
