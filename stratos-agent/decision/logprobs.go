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

// refusedParams remembers the request parameters endpoints and models
// refused (OpenAI's reasoning models refuse logprobs, and max_tokens in
// favour of max_completion_tokens), so that they are asked without them
// from then on instead of failing once per request.
type refusedParams struct {
	mu      sync.Mutex
	refuses map[string]bool
}

// The parameters refusedParams keeps track of.
const (
	paramLogprobs  = "logprobs"
	paramMaxTokens = "max_tokens"
)

func (r *refusedParams) accepts(param, endpoint, model string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return !r.refuses[param+" "+endpoint+" "+model]
}

func (r *refusedParams) refused(param, endpoint, model string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.refuses == nil {
		r.refuses = map[string]bool{}
	}
	r.refuses[param+" "+endpoint+" "+model] = true
}
