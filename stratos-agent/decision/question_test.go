package decision

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
)

func choiceQ(ids ...string) agentproto.Question {
	q := agentproto.Question{Kind: agentproto.QuestionChoice, Prompt: "Which one?"}
	for _, id := range ids {
		q.Options = append(q.Options, agentproto.ChoiceOption{ID: id})
	}
	return q
}

func scoreQ(min, max float64, step *float64) agentproto.Question {
	return agentproto.Question{Kind: agentproto.QuestionScore, Prompt: "How good?", Min: &min, Max: &max, Step: step}
}

func ptr[T any](v T) *T { return &v }

func mustQuestion(t *testing.T, q agentproto.Question) question {
	t.Helper()
	c, err := checkQuestion(q)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCheckQuestion(t *testing.T) {
	for name, q := range map[string]agentproto.Question{
		"an empty prompt":       {Kind: agentproto.QuestionVerdict, Prompt: "  "},
		"one option":            choiceQ("a"),
		"a repeated option":     choiceQ("a", "a"),
		"an empty option":       choiceQ("a", ""),
		"min not below max":     scoreQ(3, 3, nil),
		"a step of zero":        scoreQ(1, 10, ptr(0.0)),
		"a step beyond the max": scoreQ(1, 10, ptr(10.0)),
		"an unknown kind":       {Kind: "noul", Prompt: "x"},
		"a score without range": {Kind: agentproto.QuestionScore, Prompt: "x"},
	} {
		if _, err := checkQuestion(q); err == nil || agentproto.CodeOf(err) != agentproto.CodeProtocol {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// An option id is limited to 200 characters, as the SDK counts them, not
// bytes: a choice the SDK's builder accepted (options of 150 accented
// characters, 300 bytes) is not refused by the host as a protocol error.
func TestOptionIDsAreCountedInCharacters(t *testing.T) {
	long := strings.Repeat("é", maxOptionID)
	if _, err := checkQuestion(choiceQ(long, "b")); err != nil {
		t.Errorf("an id of %d characters (%d bytes): %v", maxOptionID, len(long), err)
	}
	if _, err := checkQuestion(choiceQ(long+"é", "b")); err == nil {
		t.Errorf("an id of %d characters is accepted", maxOptionID+1)
	}
	if p := answerProblem(agentproto.QuestionChoice, json.RawMessage(`"`+long+`"`)); p != "" {
		t.Errorf("a scripted answer of %d characters: %s", maxOptionID, p)
	}
}

// The schema constrains the answer the way validate checks it.
func TestSchema(t *testing.T) {
	for _, c := range []struct {
		q       agentproto.Question
		reasons bool
		want    string
	}{
		{choiceQ("red", "blue"), false, `{"additionalProperties":false,"properties":{"answer":{"enum":["red","blue"],"type":"string"}},"required":["answer"],"type":"object"}`},
		{scoreQ(1, 10, ptr(1.0)), false, `"answer":{"maximum":10,"minimum":1,"type":"integer"}`},
		{scoreQ(1, 10, ptr(2.0)), false, `"type":"integer"`},
		{scoreQ(0, 1, ptr(0.25)), false, `"answer":{"maximum":1,"minimum":0,"type":"number"}`},
		{scoreQ(0.5, 3, ptr(1.0)), false, `"type":"number"`},
		// Without a step any number in range is an answer, whole bounds or not.
		{scoreQ(1, 10, nil), false, `"answer":{"maximum":10,"minimum":1,"type":"number"}`},
		{scoreQ(0, 1, nil), false, `"type":"number"`},
		{scoreQ(0.5, 1, nil), false, `"type":"number"`},
		{agentproto.Question{Kind: agentproto.QuestionVerdict, Prompt: "x"}, true, `"properties":{"answer":{"enum":["yes","no","unsure"],"type":"string"},"reason":{"type":"string"}},"required":["answer","reason"]`},
	} {
		if got := string(mustQuestion(t, c.q).schema(c.reasons)); !strings.Contains(got, c.want) {
			t.Errorf("%+v: schema %s, want %s", c.q, got, c.want)
		}
	}
}

// An answer validate accepts is one the schema allows: a score from 0 to 1
// without a step takes 0.73, so the schema the model is held to must not
// say integer (the model could then only answer 0 or 1).
func TestSchemaAllowsEveryValidScore(t *testing.T) {
	for _, c := range []struct {
		q      agentproto.Question
		answer string
	}{
		{scoreQ(0, 1, nil), "0.73"},
		{scoreQ(1, 10, nil), "7.5"},
		{scoreQ(0, 1, ptr(0.25)), "0.75"},
	} {
		q := mustQuestion(t, c.q)
		if _, problem := q.validate(`{"answer": `+c.answer+`}`, false); problem != "" {
			t.Fatalf("%+v: %s refused: %s", c.q, c.answer, problem)
		}
		if schema := string(q.schema(false)); strings.Contains(schema, `"type":"integer"`) {
			t.Errorf("score from %v to %v (step %v): validate accepts %s but the schema says integer: %s", *c.q.Min, *c.q.Max, c.q.Step, c.answer, schema)
		}
	}
}

func TestQuestionText(t *testing.T) {
	q := choiceQ("fix", "skip")
	q.Options[0].Description = "the finding is real"
	if got := mustQuestion(t, q).text(); got != "Which one?\n\nAnswer with the id of exactly one of these options:\n- fix: the finding is real\n- skip\n" {
		t.Errorf("choice text %q", got)
	}
	if got := mustQuestion(t, scoreQ(0, 1, ptr(0.25))).text(); !strings.HasSuffix(got, "Answer with a number from 0 to 1 in steps of 0.25 from 0.\n") {
		t.Errorf("score text %q", got)
	}
}

func TestValidate(t *testing.T) {
	color := mustQuestion(t, choiceQ("red", "blue"))
	score := mustQuestion(t, scoreQ(1, 2, ptr(0.1)))
	verdict := mustQuestion(t, agentproto.Question{Kind: agentproto.QuestionVerdict, Prompt: "x"})
	for _, c := range []struct {
		q       question
		reasons bool
		content string
		answer  string
		reason  string
		problem string
	}{
		{color, false, `{"answer":"blue"}`, `"blue"`, "", ""},
		{color, false, ` {"answer": "red"} `, `"red"`, "", ""},
		{color, false, `{"answer":"purple"}`, "", "", `the answer "purple" is not one of: red, blue`},
		{color, false, `{"answer":"Red"}`, "", "", `the answer "Red" is not one of: red, blue`},
		{color, false, `red`, "", "", "the reply is not one JSON object"},
		{color, false, `{"answer":"red"} {"answer":"blue"}`, "", "", "the reply is not one JSON object"},
		{color, false, `{"choice":"red"}`, "", "", `the reply has no "answer"`},
		{color, false, `{"answer":"red","reason":"x"}`, "", "", `the reply has a field "reason" the question does not ask for`},
		{color, true, `{"answer":"red","reason":"warm"}`, `"red"`, "warm", ""},
		{color, true, `{"answer":"red","reason":1}`, "", "", `"reason" must be a string`},
		{color, false, `{"answer":1}`, "", "", "the answer 1 is not a string"},
		{score, false, `{"answer":1.3}`, `1.3`, "", ""},
		{score, false, `{"answer":2}`, `2`, "", ""},
		{score, false, `{"answer":1.35}`, "", "", "the answer 1.35 is not 1 plus a whole number of steps of 0.1"},
		{score, false, `{"answer":2.1}`, "", "", "the answer 2.1 is not from 1 to 2"},
		{score, false, `{"answer":"2"}`, "", "", `the answer "2" is not a number`},
		{verdict, false, `{"answer":"unsure"}`, `"unsure"`, "", ""},
		{verdict, false, `{"answer":"maybe"}`, "", "", `the answer "maybe" is not one of: yes, no, unsure`},
	} {
		r, problem := c.q.validate(c.content, c.reasons)
		if problem != c.problem || string(r.answer) != c.answer || r.reason != c.reason {
			t.Errorf("%s: answer %s, reason %q, problem %q; want %s, %q, %q", c.content, r.answer, r.reason, problem, c.answer, c.reason, c.problem)
		}
	}
}
