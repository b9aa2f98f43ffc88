package decision

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"sync"
	"unicode/utf8"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/shared/ollama"
)

// maxShownReply bounds what an invalid answer's error keeps of each reply.
const maxShownReply = 2000

// Asker answers decisions. One serves a host's every decision; it
// remembers which models answered, so the inventory is read once per
// endpoint and model.
type Asker struct {
	// HTTP sends the requests; each decision's timeout bounds them.
	HTTP *http.Client
	// Getenv reads OLLAMA_HOST.
	Getenv func(string) string
	// Slots admits each sample's requests (the run's decisions pool);
	// nil admits every one at once. Set before the first decision.
	Slots Slots
	// Catalog maps a hosted model's canonical ID to the provider's native
	// ID and price; nil sends names as written, unpriced.
	Catalog Catalog

	mu    sync.Mutex
	ready map[string]bool // "<endpoint> <model>" that passed the check
	// refused remembers the parameters endpoints refused (logprobs,
	// max_tokens).
	refused refusedParams
	// catalog keeps the catalog's answers by "<model> <provider>".
	catalog map[string]CatalogModel
}

// Slots is an admission pool: Acquire waits for a slot (or fails at once
// when too many wait), Release frees it.
type Slots interface {
	Acquire(ctx context.Context, queued func()) error
	Release()
}

// Request is one decision: its question and its configuration's layers,
// lowest first.
type Request struct {
	Question agentproto.Question
	Layers   []Layer
}

// Emit records one of the decision's events.
type Emit func(eventapi.Details)

// errTimeout is the cause of a decision's context when its timeoutMs
// passed.
var errTimeout = errors.New("the decision's timeout passed")

// Decide answers req: it resolves the configuration and the endpoint,
// checks the model once, asks for each sample until the answer is valid
// or the retries are spent, and returns the majority answer. emit gets
// decision.started (once the endpoint is known), decision.retry, one
// usage event per request and decision.completed. A cancelled ctx ends it
// with ctx's cause.
func (a *Asker) Decide(ctx context.Context, req Request, emit Emit) (*agentproto.DecisionResult, error) {
	res, err := a.decide(ctx, req, emit)
	done := &eventapi.DecisionCompleted{Status: eventapi.StatusCompleted}
	switch cause := context.Cause(ctx); {
	case err != nil && cause != nil && errors.Is(err, cause):
		// Cancelled (decision.cancel, the end of its execution, the run's
		// cancel): the record's code says so, cancelled as the SDK's
		// CancelledError, not that of the bare cause, which has none
		// (internal). The status stays failed: the event's statuses are
		// completed and failed, as an agent execute's are.
		done.Status = eventapi.StatusFailed
		done.Error = &eventapi.Error{Code: agentproto.CodeCancelled, Message: err.Error()}
	case err != nil:
		done.Status = eventapi.StatusFailed
		done.Error = &eventapi.Error{Code: agentproto.CodeOf(err), Message: err.Error()}
	default:
		confidence := res.Confidence
		done.Answer, done.Confidence, done.Basis = res.Answer, &confidence, res.Basis
	}
	emit(done)
	return res, err
}

func (a *Asker) decide(ctx context.Context, req Request, emit Emit) (*agentproto.DecisionResult, error) {
	q, err := checkQuestion(req.Question)
	if err != nil {
		return nil, err
	}
	cfg, err := Resolve(req.Layers...)
	if err != nil {
		return nil, err
	}
	if cfg.Provider == ProviderTest {
		emit(&eventapi.DecisionStarted{Kind: q.Kind, Provider: cfg.Provider, Model: cfg.Model, Samples: cfg.Samples})
		return answerScripted(q, cfg)
	}
	ctx, cancel := context.WithTimeoutCause(ctx, cfg.Timeout, errTimeout)
	defer cancel()
	t, err := a.target(ctx, &cfg)
	if err != nil {
		return nil, timedOut(ctx, cfg, err)
	}
	endpoint := t.endpoint.String()
	facts := map[string]any{"provider": cfg.Provider, "model": cfg.Model, "endpoint": endpoint}
	emit(&eventapi.DecisionStarted{Kind: q.Kind, Provider: cfg.Provider, Model: cfg.Model, Endpoint: endpoint, Samples: cfg.Samples})
	res, err := a.ask(ctx, q, cfg, t, emit)
	if err != nil {
		return nil, withFacts(timedOut(ctx, cfg, err), facts)
	}
	res.Provider, res.Model, res.Endpoint = cfg.Provider, cfg.Model, endpoint
	return res, nil
}

// backend asks a model one request of a decision's conversation (ask,
// its answer constrained to the schema), or one free-text request (chat,
// its answer at most maxTokens long).
type backend interface {
	ask(ctx context.Context, messages []message, sample int) (turn, error)
	chat(ctx context.Context, messages []message, maxTokens int) (turn, error)
}

// backendOf is the provider's backend for t, with the answer's schema
// (nil for chat); only the provider chooses it. Ollama's model is checked
// against the server's inventory first; a hosted endpoint's model is
// known by its answer (404: unavailable).
func (a *Asker) backendOf(ctx context.Context, schema json.RawMessage, cfg Config, t target) (backend, error) {
	hosted := api{http: a.HTTP, endpoint: t.endpoint}
	switch cfg.Provider {
	case ProviderOpenAI:
		hosted.name = "OpenAI-compatible endpoint"
		if t.key != "" {
			hosted.header = func(h http.Header) { h.Set("Authorization", "Bearer "+t.key) }
		}
		return &openaiBackend{api: hosted, model: t.native, schema: schema, cfg: cfg, refused: &a.refused}, nil
	case ProviderAnthropic:
		hosted.name = "Anthropic endpoint"
		hosted.header = func(h http.Header) {
			h.Set("anthropic-version", anthropicVersion)
			if t.key != "" {
				h.Set("x-api-key", t.key)
			}
		}
		return &anthropicBackend{api: hosted, model: t.native, schema: schema, cfg: cfg}, nil
	}
	if err := a.checkModel(ctx, t.endpoint, t.native); err != nil {
		return nil, err
	}
	return &ollamaBackend{http: a.HTTP, host: t.endpoint, model: t.native, schema: schema, cfg: cfg}, nil
}

// ask checks the model, then asks every sample, each in a slot of the
// pool and all at once as far as it admits them, and returns the
// majority. The first sample that fails ends the others.
func (a *Asker) ask(ctx context.Context, q question, cfg Config, t target, emit Emit) (*agentproto.DecisionResult, error) {
	b, err := a.backendOf(ctx, q.schema(cfg.Reasons), cfg, t)
	if err != nil {
		return nil, err
	}
	s := &sampler{q: q, cfg: cfg, ask: b.ask, emit: emit, price: t.price}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	replies := make([]reply, cfg.Samples)
	var wg sync.WaitGroup
	for i := range replies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			queued := func() { emit(&eventapi.DecisionAdmissionQueued{Sample: i + 1}) }
			var r reply
			err := a.admitted(ctx, queued, func() (err error) {
				r, err = s.sample(ctx, i+1)
				return err
			})
			if err != nil {
				cancel(err)
				return
			}
			replies[i] = r
		}()
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return nil, err
	}
	res := majority(replies)
	res.Usage = s.usage
	return res, nil
}

// admitted runs fn in a slot of the pool; queued is called when it has
// to wait for one.
func (a *Asker) admitted(ctx context.Context, queued func(), fn func() error) error {
	if a.Slots == nil {
		return fn()
	}
	if err := a.Slots.Acquire(ctx, queued); err != nil {
		return err
	}
	defer a.Slots.Release()
	return fn()
}

// checkModel reads the inventory the first time a model of an endpoint is
// asked; a model that passed is not checked again by this Asker.
func (a *Asker) checkModel(ctx context.Context, host ollama.Host, model string) error {
	key := host.String() + " " + model
	a.mu.Lock()
	ok := a.ready[key]
	a.mu.Unlock()
	if ok {
		return nil
	}
	if err := answerable(ctx, a.HTTP, host, model); err != nil {
		return err
	}
	a.mu.Lock()
	if a.ready == nil {
		a.ready = map[string]bool{}
	}
	a.ready[key] = true
	a.mu.Unlock()
	return nil
}

// sampler asks for one sample's answer, again with what was wrong while
// the answer is invalid and retries are left.
type sampler struct {
	q    question
	cfg  Config
	ask  func(ctx context.Context, messages []message, sample int) (turn, error)
	emit Emit
	// price prices each request's tokens; nil leaves the cost unknown.
	price *modelsapi.Price
	mu    sync.Mutex // samples run at once
	usage *agentproto.CallUsage
}

// attempt is one invalid reply, as the error keeps it.
type attempt struct {
	Sample  int    `json:"sample"`
	Attempt int    `json:"attempt"`
	Reply   string `json:"reply"`
	Problem string `json:"problem"`
}

func (s *sampler) sample(ctx context.Context, i int) (reply, error) {
	messages := []message{{Role: "system", Content: s.q.instructions(s.cfg.Reasons)}, {Role: "user", Content: s.q.text()}}
	of := s.cfg.Retries + 1
	var failed []attempt
	for n := 1; n <= of; n++ {
		t, err := s.ask(ctx, messages, i)
		if err != nil {
			return reply{}, err
		}
		s.count(t)
		r, problem := s.q.validate(t.content, s.cfg.Reasons)
		if problem == "" {
			if p, ok := answerProbability(t.content, t.logprobs); ok {
				r.prob = &p
			}
			return r, nil
		}
		failed = append(failed, attempt{Sample: i, Attempt: n, Reply: cut(t.content, maxShownReply), Problem: problem})
		if n < of {
			s.emit(&eventapi.DecisionRetry{Sample: i, Attempt: n, Of: of, Problem: problem})
			messages = append(messages, message{Role: "assistant", Content: t.content},
				message{Role: "user", Content: "Your reply cannot be used: " + problem + ". Reply again with only the JSON object."})
		}
	}
	last := failed[len(failed)-1].Problem
	return reply{}, agentproto.Errorf(agentproto.CodeDecisionInvalidAnswer, "the model's answer is invalid: %s (after %d attempts)", last, of).
		WithDetails(map[string]any{"attempts": failed})
}

// count records a request's usage: a usage event, and the decision's sum.
// A hosted model's turns are priced from the catalog (provenance
// "priced"); local models and names the catalog does not map have no
// price, so their cost stays unknown.
func (s *sampler) count(t turn) {
	u := usageOf(s.cfg, s.price, t)
	s.emit(u)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.usage == nil {
		s.usage = &agentproto.CallUsage{}
	}
	s.usage.Turns++
	s.usage.Tokens += t.tokens.Total()
	if u.CostUSD != nil {
		s.usage.USD += *u.CostUSD
	} else {
		s.usage.UnknownCostTurns++
	}
}

// majority is the answer most samples gave, the earliest sample's among
// equals. Its confidence is the share of samples that gave it, or, when
// every sample came with the answer's token probability, the mean over
// the samples of the probability each gave it (0 for a sample that gave
// another answer): a single sample's is its probability.
func majority(replies []reply) *agentproto.DecisionResult {
	counts := map[string]int{}
	for _, r := range replies {
		counts[string(r.answer)]++
	}
	best := string(replies[0].answer)
	for _, r := range replies {
		if k := string(r.answer); counts[k] > counts[best] {
			best = k
		}
	}
	res := &agentproto.DecisionResult{Answer: json.RawMessage(best), Basis: agentproto.BasisAgreement, Samples: len(replies),
		Confidence: round6(float64(counts[best]) / float64(len(replies)))}
	if p, ok := meanProbability(replies, best); ok {
		res.Basis, res.Confidence = agentproto.BasisLogprobs, round6(p)
	}
	for _, r := range replies {
		if string(r.answer) == best && r.reason != "" {
			res.Reasons = append(res.Reasons, r.reason)
		}
	}
	return res
}

// meanProbability is the mean over replies of the probability each gave
// answer, when every reply has its probability.
func meanProbability(replies []reply, answer string) (float64, bool) {
	sum := 0.0
	for _, r := range replies {
		if r.prob == nil {
			return 0, false
		}
		if string(r.answer) == answer {
			sum += *r.prob
		}
	}
	return sum / float64(len(replies)), true
}

func round6(f float64) float64 { return math.Round(f*1e6) / 1e6 }

// timedOut is err as the decision reports it: decision_timeout when the
// decision's own timeout ended it.
func timedOut(ctx context.Context, cfg Config, err error) error {
	if errors.Is(context.Cause(ctx), errTimeout) && errors.Is(err, errTimeout) {
		return agentproto.Errorf(agentproto.CodeDecisionTimeout, "the decision took longer than its timeoutMs (%d ms)", cfg.Timeout.Milliseconds()).
			WithDetails(map[string]any{"timeoutMs": cfg.Timeout.Milliseconds()}).Wrap(err)
	}
	return err
}

// withFacts adds the decision's provider, model and endpoint to the
// details of an agent error.
func withFacts(err error, facts map[string]any) error {
	var e *agentproto.Error
	if !errors.As(err, &e) {
		return err
	}
	details := map[string]any{}
	for k, v := range facts {
		details[k] = v
	}
	for k, v := range e.Details {
		details[k] = v
	}
	e.Details = details
	return err
}

// cut is s at most n bytes long, marked when cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + fmt.Sprintf("… (%d bytes more)", len(s)-n)
}
