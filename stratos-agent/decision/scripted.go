package decision

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/stratoscli/stratos/shared/agentproto"
)

// ProviderTest answers decisions from a script instead of a model, as the
// test harness answers agents: `stratos test` cases select it through the
// invocation's decision overrides.
const ProviderTest = "test"

// maxScripted bounds a script's entries.
const maxScripted = 1000

// Scripted is one scripted decision: the first whose When matches a
// decision answers it, with Answer (validated against the question as a
// model's answer is) or with a Fail error.
type Scripted struct {
	// Name names the entry in messages.
	Name string `json:"name,omitempty"`
	When When   `json:"when,omitzero"`
	// Answer is the answer's JSON: a choice's option id, a score's
	// number, "yes", "no" or "unsure".
	Answer json.RawMessage `json:"answer,omitempty"`
	// Reason is returned as the reasons when the decision asks for them.
	Reason string `json:"reason,omitempty"`
	// Confidence is the answer's confidence (default 1).
	Confidence *float64 `json:"confidence,omitempty"`
	// Fail fails the decision with this decision error code instead.
	Fail    string `json:"fail,omitempty"`
	Message string `json:"message,omitempty"`
	// Text answers a free-text request (an MCP server's sampling request,
	// see Chat) instead of a decision.
	Text string `json:"text,omitempty"`
}

// KindText is the kind a script's when names to match free-text requests
// (Chat) only; entries with text match nothing else.
const KindText = "text"

// When restricts a scripted decision to some questions; empty fields
// match anything.
type When struct {
	// Kind is the question's kind: choice, score or verdict, or text for
	// a free-text request.
	Kind           string `json:"kind,omitempty"`
	PromptContains string `json:"promptContains,omitempty"`
	PromptMatches  string `json:"promptMatches,omitempty"`
	re             *regexp.Regexp
}

// decodeScript reads a script strictly (unknown fields are errors) and
// checks each entry, naming it.
func decodeScript(raw json.RawMessage) ([]Scripted, error) {
	var entries []json.RawMessage
	if err := json.Unmarshal(raw, &entries); err != nil || isNull(raw) {
		return nil, fmt.Errorf("must be a list of scripted decisions (when, answer, reason, confidence, text, or fail and message), got %s", shown(raw))
	}
	if len(entries) > maxScripted {
		return nil, fmt.Errorf("has %d entries (at most %d)", len(entries), maxScripted)
	}
	script := make([]Scripted, len(entries))
	for i, entry := range entries {
		if err := decodeEntry(entry, &script[i]); err != nil {
			return nil, fmt.Errorf("[%d]: %v", i, err)
		}
		if err := script[i].check(); err != nil {
			return nil, fmt.Errorf("[%d]: %v", i, err)
		}
	}
	return script, nil
}

// decodeEntry decodes one entry strictly. A field of the wrong type or an
// unknown one is named by its path in the entry, with what it must be and
// what it is: a script is written by hand, and encoding/json's own words
// name Go types ("cannot unmarshal string into Go struct field
// Scripted.confidence of type float64") or no place ("unknown field").
func decodeEntry(raw json.RawMessage, s *Scripted) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err := dec.Decode(s)
	if err == nil {
		return nil
	}
	var mistyped *json.UnmarshalTypeError
	if errors.As(err, &mistyped) {
		return fmt.Errorf("%s: must be %s, got %s", mistyped.Field, expected(mistyped.Type.Kind()), literalBefore(raw, mistyped.Offset, mistyped.Value))
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		var top map[string]json.RawMessage
		_ = json.Unmarshal(raw, &top)
		if _, here := top[strings.Trim(name, `"`)]; here || top == nil {
			return fmt.Errorf("unknown field %s (known: name, when, answer, reason, confidence, fail, message, text)", name)
		}
		return fmt.Errorf("when: unknown field %s (known: kind, promptContains, promptMatches)", name)
	}
	return err
}

// expected says what a value of a kind is, as a script writes it.
func expected(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "a string"
	case reflect.Float64, reflect.Float32:
		return "a number"
	case reflect.Struct, reflect.Map:
		return "a mapping"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice:
		return "a list"
	}
	return k.String()
}

// literalBefore is the JSON literal of raw that ends at offset, where
// encoding/json reports a mistyped one; an object or an array is reported
// just after its opening, and is named by its kind (value).
func literalBefore(raw []byte, offset int64, value string) string {
	if value == "object" || value == "array" || offset <= 0 || offset > int64(len(raw)) {
		return value
	}
	end := int(offset)
	start := end - 1
	if raw[start] == '"' {
		for start--; start > 0 && !(raw[start] == '"' && raw[start-1] != '\\'); start-- {
		}
	} else {
		for start > 0 && strings.IndexByte("+-.0123456789eEtruefalsn", raw[start-1]) >= 0 {
			start--
		}
	}
	return shown(raw[start:end])
}

func (s *Scripted) check() error {
	given := 0
	for _, set := range []bool{len(s.Answer) > 0, s.Fail != "", s.Text != ""} {
		if set {
			given++
		}
	}
	if given != 1 {
		return fmt.Errorf("give one of answer, text or fail")
	}
	if s.Fail != "" && !slices.Contains(agentproto.DecisionErrorCodes(), s.Fail) {
		return fmt.Errorf("fail: %q is not a decision error code (known: %s)", s.Fail, strings.Join(agentproto.DecisionErrorCodes(), ", "))
	}
	if c := s.Confidence; c != nil && !(*c >= 0 && *c <= 1) {
		return fmt.Errorf("confidence: must be a number from 0 to 1, got %v", *c)
	}
	switch s.When.Kind {
	case "", agentproto.QuestionChoice, agentproto.QuestionScore, agentproto.QuestionVerdict, KindText:
	default:
		return fmt.Errorf("when.kind: %q is not choice, score, verdict or text", s.When.Kind)
	}
	if s.Text != "" && s.When.Kind != "" && s.When.Kind != KindText {
		return fmt.Errorf("text answers free-text requests only, not %s questions (when.kind)", s.When.Kind)
	}
	if s.When.PromptMatches != "" {
		re, err := regexp.Compile(s.When.PromptMatches)
		if err != nil {
			return fmt.Errorf("when.promptMatches: %v", err)
		}
		s.When.re = re
	}
	if len(s.Answer) > 0 && s.When.Kind == KindText {
		return fmt.Errorf("answer answers decisions, not free-text requests (when.kind text): give text")
	}
	if len(s.Answer) > 0 {
		if problem := answerProblem(s.When.Kind, s.Answer); problem != "" {
			return fmt.Errorf("answer: %s", problem)
		}
	}
	return nil
}

// answerProblem is what is wrong with a scripted answer that no question
// of the entry's kind could allow (a verdict's "maybe", a score's "high"):
// the entry could never answer, so it is refused with the script instead
// of failing the run that reaches it. Whether a choice's id is one of its
// options, or a score is in its range, depends on the question, which only
// the run has. An entry without a kind may answer any question, so its
// answer must be a string or a number.
func answerProblem(kind string, raw json.RawMessage) string {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return fmt.Sprintf("%s is not JSON", shown(raw))
	}
	s, isString := v.(string)
	_, isNumber := v.(json.Number)
	switch {
	case kind == agentproto.QuestionVerdict && !slices.Contains(verdicts, s):
		return fmt.Sprintf("%s is not yes, no or unsure (when.kind is verdict)", shown(raw))
	case kind == agentproto.QuestionScore && !isNumber:
		return fmt.Sprintf("%s is not a number (when.kind is score)", shown(raw))
	case kind == agentproto.QuestionChoice && !isString:
		return fmt.Sprintf("%s is not an option id (when.kind is choice)", shown(raw))
	case kind == "" && !isString && !isNumber:
		return fmt.Sprintf("%s is not a choice's option id, a score's number, or yes, no or unsure", shown(raw))
	case isString && (s == "" || idTooLong(s)):
		return fmt.Sprintf("%s is empty or longer than %d characters, which no option id is", shown(raw), maxOptionID)
	}
	return ""
}

// answersText reports whether the entry answers free-text requests
// rather than decisions.
func (s Scripted) answersText() bool {
	return s.Text != "" || (s.Fail != "" && s.When.Kind == KindText)
}

func (w When) matches(q question) bool {
	return (w.Kind == "" || w.Kind == q.Kind) &&
		strings.Contains(q.Prompt, w.PromptContains) &&
		(w.re == nil || w.re.MatchString(q.Prompt))
}

// answerScripted answers q from the script: the first entry whose When
// matches. Its answer is validated against the question (a scripted
// answer the question does not allow fails as a model's would, without
// retries: asking again would get the same); no model is called, so
// there is no usage.
func answerScripted(q question, cfg Config) (*agentproto.DecisionResult, error) {
	i := slices.IndexFunc(cfg.Script, func(s Scripted) bool { return !s.answersText() && s.When.matches(q) })
	if i < 0 {
		return nil, agentproto.Errorf(agentproto.CodeDecisionConfiguration,
			"no scripted decision matches this %s question (prompt %q): add an entry to the test case's decisions, or set allowRealHarness: true on the case to let its model answer", q.Kind, cut(q.Prompt, 200))
	}
	s := cfg.Script[i]
	name := s.name(i)
	if s.Fail != "" {
		return nil, scriptedFailure(s, i)
	}
	answer, problem := q.check(s.Answer)
	if problem != "" {
		return nil, agentproto.Errorf(agentproto.CodeDecisionInvalidAnswer, "the scripted decision %s's answer is invalid: %s", name, problem).
			WithDetails(map[string]any{"scripted": name})
	}
	res := &agentproto.DecisionResult{Answer: answer, Confidence: 1, Basis: agentproto.BasisAgreement, Samples: cfg.Samples,
		Provider: ProviderTest, Model: cfg.Model}
	if s.Confidence != nil {
		res.Confidence = *s.Confidence
	}
	if cfg.Reasons && s.Reason != "" {
		res.Reasons = []string{s.Reason}
	}
	return res, nil
}

// name is the entry's name, or its place in the script.
func (s Scripted) name(i int) string {
	if s.Name != "" {
		return s.Name
	}
	return fmt.Sprintf("decisions[%d]", i)
}

// scriptedFailure is the error of an entry that fails.
func scriptedFailure(s Scripted, i int) error {
	msg := s.Message
	if msg == "" {
		msg = "the test case's scripted decision fails"
	}
	name := s.name(i)
	return agentproto.Errorf(s.Fail, "%s (scripted decision %s)", msg, name).WithDetails(map[string]any{"scripted": name})
}
