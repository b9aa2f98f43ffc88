package decision

import (
	"encoding/json"
	"math"
	"strings"
	"sync"
)

// tokenLogprob is one content token and its log-probability, as Chat
// Completions reports them (logprobs.content).
type tokenLogprob struct {
	Token   string  `json:"token"`
	Logprob float64 `json:"logprob"`
}

// answerProbability is the probability the model gave the answer's
// value: the product of the probabilities of the tokens that overlap the
// value's bytes in content (a string answer's quotes included). ok is
// false when the tokens do not spell content or it has no answer, so the
// confidence falls back to the samples' agreement.
func answerProbability(content string, tokens []tokenLogprob) (p float64, ok bool) {
	start, end, found := answerSpan(content)
	if !found || len(tokens) == 0 {
		return 0, false
	}
	var spelt strings.Builder
	sum, at := 0.0, 0
	for _, t := range tokens {
		next := at + len(t.Token)
		if next > start && at < end {
			sum += t.Logprob
		}
		spelt.WriteString(t.Token)
		at = next
	}
	if spelt.String() != content || math.IsNaN(sum) {
		return 0, false
	}
	return math.Exp(sum), true
}

// answerSpan finds the bytes of the "answer" value of the JSON object in
// content.
func answerSpan(content string) (start, end int, ok bool) {
	dec := json.NewDecoder(strings.NewReader(content))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return 0, 0, false
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return 0, 0, false
		}
		from := int(dec.InputOffset())
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return 0, 0, false
		}
		if key == "answer" {
			to := int(dec.InputOffset())
			i := strings.Index(content[from:to], string(v))
			if i < 0 {
				return 0, 0, false
			}
			return from + i, from + i + len(v), true
		}
	}
	return 0, 0, false
}

// logprobSupport remembers the endpoints and models that refused a
// request for logprobs (OpenAI's reasoning models do), so that they are
// asked without them from then on.
type logprobSupport struct {
	mu      sync.Mutex
	refuses map[string]bool
}

func (l *logprobSupport) supported(endpoint, model string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return !l.refuses[endpoint+" "+model]
}

func (l *logprobSupport) refused(endpoint, model string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.refuses == nil {
		l.refuses = map[string]bool{}
	}
	l.refuses[endpoint+" "+model] = true
}
