package decision

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/stratoscli/stratos/shared/agentproto"
)

// Limits of a question, as the SDK's builders check them.
const (
	minOptions  = 2
	maxOptions  = 64
	maxOptionID = 200
)

// verdicts are a verdict's answers, in the order they are offered.
var verdicts = []string{"yes", "no", "unsure"}

// question is a checked question.
type question struct{ agentproto.Question }

// checkQuestion checks what the SDK's builders check: the host is not
// the first to see a question, so a bad one is a protocol error.
func checkQuestion(q agentproto.Question) (question, error) {
	bad := func(format string, args ...any) (question, error) {
		return question{}, agentproto.Errorf(agentproto.CodeProtocol, "decision.ask: invalid %s question: %s", q.Kind, fmt.Sprintf(format, args...))
	}
	if strings.TrimSpace(q.Prompt) == "" {
		return bad("an empty prompt")
	}
	switch q.Kind {
	case agentproto.QuestionChoice:
		if n := len(q.Options); n < minOptions || n > maxOptions {
			return bad("%d options (a choice has %d to %d)", n, minOptions, maxOptions)
		}
		seen := map[string]bool{}
		for _, o := range q.Options {
			if o.ID == "" || idTooLong(o.ID) || seen[o.ID] {
				return bad("option id %q is empty, too long or repeated", o.ID)
			}
			seen[o.ID] = true
		}
	case agentproto.QuestionScore:
		if q.Min == nil || q.Max == nil || !(*q.Min < *q.Max) || isInf(*q.Min) || isInf(*q.Max) {
			return bad("min and max must be finite numbers with min < max")
		}
		if q.Step != nil && !(*q.Step > 0 && *q.Step <= *q.Max-*q.Min) {
			return bad("step must be positive and at most max - min")
		}
	case agentproto.QuestionVerdict:
	default:
		return bad("unknown kind (choice, score, verdict)")
	}
	return question{q}, nil
}

// idTooLong reports an option id longer than maxOptionID characters. The
// SDK counts JavaScript's characters (UTF-16 units), never fewer than the
// id's code points; bytes would refuse the ids it let through (100
// accented or CJK characters are 200 to 300 bytes).
func idTooLong(id string) bool { return utf8.RuneCountInString(id) > maxOptionID }

func isInf(f float64) bool { return math.IsInf(f, 0) || math.IsNaN(f) }

// schema is the JSON Schema of a reply: an object with the answer, and a
// reason when reasons are asked for. Backends send it as the structured
// output the model must follow; validate checks it again.
func (q question) schema(reasons bool) json.RawMessage {
	var answer map[string]any
	switch q.Kind {
	case agentproto.QuestionChoice:
		answer = map[string]any{"type": "string", "enum": q.ids()}
	case agentproto.QuestionScore:
		answer = map[string]any{"type": q.scoreType(), "minimum": *q.Min, "maximum": *q.Max}
	default:
		answer = map[string]any{"type": "string", "enum": verdicts}
	}
	props := map[string]any{"answer": answer}
	required := []string{"answer"}
	if reasons {
		props["reason"] = map[string]any{"type": "string"}
		required = append(required, "reason")
	}
	b, _ := json.Marshal(map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false})
	return b
}

func (q question) ids() []string {
	ids := make([]string, len(q.Options))
	for i, o := range q.Options {
		ids[i] = o.ID
	}
	return ids
}

// scoreType is "integer" when every allowed score is a whole number: a
// step is given and min and the step are whole. Without a step every number
// from min to max is an answer (0.73 of a score from 0 to 1), whole bounds
// or not, and the schema the model is held to must not forbid what validate
// accepts: held to integers, a score from 0 to 1 could only be 0 or 1.
func (q question) scoreType() string {
	if q.Step != nil && isWhole(*q.Min) && isWhole(*q.Step) {
		return "integer"
	}
	return "number"
}

func isWhole(f float64) bool { return f == math.Trunc(f) }

// instructions are the system message: how to answer.
func (q question) instructions(reasons bool) string {
	reason := ""
	if reasons {
		reason = `, and "reason": one or two sentences saying why`
	}
	return "You answer one question for a program that acts on your answer. Reply with a JSON object only, no other text: " +
		`"answer": your answer, exactly as the question allows` + reason + "."
}

// text is the user message: the prompt, then what the answer may be.
func (q question) text() string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(q.Prompt))
	b.WriteString("\n\n")
	switch q.Kind {
	case agentproto.QuestionChoice:
		b.WriteString("Answer with the id of exactly one of these options:\n")
		for _, o := range q.Options {
			b.WriteString("- " + o.ID)
			if o.Description != "" {
				b.WriteString(": " + o.Description)
			}
			b.WriteString("\n")
		}
	case agentproto.QuestionScore:
		fmt.Fprintf(&b, "Answer with a number from %s to %s", num(*q.Min), num(*q.Max))
		if q.Step != nil {
			fmt.Fprintf(&b, " in steps of %s from %s", num(*q.Step), num(*q.Min))
		}
		b.WriteString(".\n")
	default:
		b.WriteString("Answer with yes, no, or unsure (when the information given does not settle it).\n")
	}
	return b.String()
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// reply is a validated answer: the answer's JSON and the reason, and
// the probability the model gave the answer when the endpoint reported
// its tokens' log-probabilities.
type reply struct {
	answer json.RawMessage
	reason string
	prob   *float64
}

// validate checks a model's reply against the question; problem says
// what is wrong, for the model (when it is asked again) and for people.
func (q question) validate(content string, reasons bool) (r reply, problem string) {
	var obj map[string]json.RawMessage
	dec := json.NewDecoder(strings.NewReader(content))
	dec.UseNumber()
	if err := dec.Decode(&obj); err != nil || obj == nil || dec.More() {
		return r, "the reply is not one JSON object"
	}
	raw, ok := obj["answer"]
	if !ok {
		return r, `the reply has no "answer"`
	}
	for k := range obj {
		if k != "answer" && !(reasons && k == "reason") {
			return r, fmt.Sprintf("the reply has a field %q the question does not ask for", k)
		}
	}
	if reasons {
		if err := json.Unmarshal(obj["reason"], &r.reason); err != nil {
			return r, `"reason" must be a string`
		}
	}
	answer, problem := q.check(raw)
	if problem != "" {
		return r, problem
	}
	r.answer = answer
	return r, ""
}

// check validates the answer's value and returns it as the result carries
// it (compact JSON).
func (q question) check(raw json.RawMessage) (json.RawMessage, string) {
	if q.Kind == agentproto.QuestionScore {
		var n float64
		if err := json.Unmarshal(raw, &n); err != nil {
			return nil, fmt.Sprintf("the answer %s is not a number", shown(raw))
		}
		if n < *q.Min || n > *q.Max {
			return nil, fmt.Sprintf("the answer %s is not from %s to %s", num(n), num(*q.Min), num(*q.Max))
		}
		if q.Step != nil && !onGrid(n, *q.Min, *q.Step) {
			return nil, fmt.Sprintf("the answer %s is not %s plus a whole number of steps of %s", num(n), num(*q.Min), num(*q.Step))
		}
		b, _ := json.Marshal(n)
		return b, ""
	}
	allowed := verdicts
	if q.Kind == agentproto.QuestionChoice {
		allowed = q.ids()
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Sprintf("the answer %s is not a string", shown(raw))
	}
	for _, a := range allowed {
		if s == a {
			b, _ := json.Marshal(s)
			return b, ""
		}
	}
	return nil, fmt.Sprintf("the answer %q is not one of: %s", s, strings.Join(allowed, ", "))
}

// onGrid reports whether n is min plus a whole number of steps, allowing
// for the rounding of decimal steps (0.1 is not exact in binary).
func onGrid(n, min, step float64) bool {
	k := (n - min) / step
	return math.Abs(k-math.Round(k)) < 1e-9
}
