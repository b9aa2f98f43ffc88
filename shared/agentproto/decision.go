package agentproto

import "encoding/json"

// Methods of decisions: a question answered by a model directly, without
// a harness (docs/design/decision.md). The host validates the
// configuration, calls the model, validates the answer and records the
// decision's events and usage; the SDK builds the question and journals
// the result.
const (
	// MethodDecisionAsk asks one decision (DecisionParams →
	// DecisionResult).
	MethodDecisionAsk = "decision.ask"
	// MethodDecisionCancel (DecisionRef, notification) cancels a decision
	// that is waiting or running; its ask answers with "cancelled". A
	// cancel may overtake its ask.
	MethodDecisionCancel = "decision.cancel"
)

// Error codes of decisions (err.code of the SDK's DecisionError classes).
// Cancellation is CodeCancelled, as for agents.
const (
	CodeDecisionConfiguration    = "decision_configuration"     // a bad field in a layer, no model, an unknown provider, an invalid selected endpoint
	CodeDecisionEndpoint         = "decision_endpoint"          // the endpoint did not answer, or answered with an error or not the backend's reply
	CodeDecisionModelUnavailable = "decision_model_unavailable" // the model is not installed, is a cloud entry, or cannot complete
	CodeDecisionInvalidAnswer    = "decision_invalid_answer"    // every attempt's answer failed the question's validation
	CodeDecisionTimeout          = "decision_timeout"           // the decision's timeoutMs passed
	CodeDecisionAdmission        = "decision_admission"         // decisions.maxOutstanding decisions are running or waiting
)

// DecisionErrorCodes lists the decision error codes (the TypeScript file
// must list the same).
func DecisionErrorCodes() []string {
	return []string{CodeDecisionAdmission, CodeDecisionConfiguration, CodeDecisionEndpoint, CodeDecisionInvalidAnswer,
		CodeDecisionModelUnavailable, CodeDecisionTimeout}
}

// Question kinds.
const (
	QuestionChoice  = "choice"
	QuestionScore   = "score"
	QuestionVerdict = "verdict"
)

// Question is what a decision asks, as the SDK's builders made it: a
// choice among options, a score in a range, or a yes/no/unsure verdict.
type Question struct {
	Kind   string `json:"kind" ts:"\"choice\" | \"score\" | \"verdict\""`
	Prompt string `json:"prompt"`
	// Options are a choice's options, in the order they are offered.
	Options []ChoiceOption `json:"options,omitempty"`
	// Min, Max and Step bound a score: Min ≤ n ≤ Max, and with Step, n is
	// Min plus a whole number of steps.
	Min  *float64 `json:"min,omitempty"`
	Max  *float64 `json:"max,omitempty"`
	Step *float64 `json:"step,omitempty"`
}

// ChoiceOption is one option of a choice: the id the model answers with,
// and what it means.
type ChoiceOption struct {
	ID          string `json:"id"`
	Description string `json:"description,omitempty"`
}

// DecisionConfig is one layer of a decision's configuration: the
// decision section of workflow.yaml, the invocation's decision overrides
// (`stratos run --overrides`, a child wrapper's overrides.decision; never
// inherited by children), or the decision() call's options. Nil fields
// are not given by that layer. The layers merge field by field, the call
// over the invocation over workflow.yaml: a field a layer leaves out keeps
// the value of the layers below it, and a field no layer gives has the
// default named on it. Each layer is checked on its own, and a bad value
// is a decision_configuration error naming the layer and the field. The
// test provider's script is a field of every layer too, read by the host
// alone (stratos-agent/decision), so it is not part of this type.
type DecisionConfig struct {
	// Provider chooses the backend: "ollama", "openai" (OpenAI or a
	// compatible endpoint), "anthropic", or "test" (answered from the
	// script). Without one in any layer, a catalog ID whose creator is
	// openai or anthropic implies it; any other model needs it.
	Provider *string `json:"provider,omitempty"`
	// Model is the model that answers: an installed Ollama name (no tag
	// means ":latest"), or for a hosted provider a catalog ID
	// ("openai/gpt-4.1-mini") or the endpoint's own name. No layer giving
	// one is a configuration error.
	Model *string `json:"model,omitempty"`
	// BaseURL is the endpoint: an HTTP(S) URL without credentials, query
	// or fragment, which may carry a path prefix. The effective one wins
	// over OLLAMA_HOST for Ollama, and an invalid one is an error that
	// falls back to nothing; without one, Ollama uses OLLAMA_HOST, then
	// http://127.0.0.1:11434, and a hosted provider its own endpoint.
	BaseURL *string `json:"baseUrl,omitempty"`
	// Samples is how many answers to ask for (1–15, default 1); the
	// majority answers, with the agreement as its confidence.
	Samples *int `json:"samples,omitempty"`
	// Retries is how many times an invalid answer is asked again, per
	// sample (0–10, default 2).
	Retries *int `json:"retries,omitempty"`
	// TimeoutMs bounds the whole decision, every sample and retry
	// included (1–3600000, default 120000).
	TimeoutMs *int `json:"timeoutMs,omitempty"`
	// Temperature (0–2) is sent to the model when a layer gives it;
	// otherwise the model's own applies.
	Temperature *float64 `json:"temperature,omitempty"`
	// Seed is sent when a layer gives it: the first sample with Seed,
	// each further one with one more, so that samples differ (the
	// Anthropic API takes none); no default.
	Seed *int64 `json:"seed,omitempty"`
	// Reasons asks the model for its reasons beside the answer (default
	// false: they cost output tokens).
	Reasons *bool `json:"reasons,omitempty"`
}

// DecisionLayers are a decision's configuration layers. Each is raw, as
// the SDK got it, so the host names the layer and field of a bad value.
type DecisionLayers struct {
	// YAML is the workflow.yaml's decision section.
	YAML json.RawMessage `json:"yaml,omitempty" ts:"DecisionConfig"`
	// Overrides are the invocation's decision overrides.
	Overrides json.RawMessage `json:"overrides,omitempty" ts:"DecisionConfig"`
	// Call are the decision() call's options.
	Call json.RawMessage `json:"call,omitempty" ts:"DecisionConfig"`
}

// DecisionParams is one decision(question, options) call.
type DecisionParams struct {
	// DecisionID identifies the decision within the host:
	// "<executionId>/decision-<n>".
	DecisionID  string         `json:"decisionId"`
	ExecutionID string         `json:"executionId"`
	Workflow    WorkflowRef    `json:"workflow"`
	Question    Question       `json:"question"`
	Config      DecisionLayers `json:"config"`
	// Phase is the phase of workflow code the decision was asked in (a
	// path of nested phases, "review/fix"; "" outside any): the host puts
	// it on the decision's events, as on an execute's.
	Phase string `json:"phase,omitempty"`
}

// Confidence bases: what a decision's confidence is.
const (
	BasisAgreement = "agreement" // the share of samples that gave the answer
	BasisLogprobs  = "logprobs"  // the probability of the answer's tokens
)

// DecisionResult is a validated answer.
type DecisionResult struct {
	// Answer is a choice's option id, a score's number, or "yes", "no"
	// or "unsure".
	Answer     json.RawMessage `json:"answer" ts:"string | number"`
	Confidence float64         `json:"confidence"`
	Basis      string          `json:"basis" ts:"\"agreement\" | \"logprobs\""`
	// Samples is how many answers were asked for.
	Samples int `json:"samples"`
	// Reasons are the model's reasons for the answer, when asked for.
	Reasons []string `json:"reasons,omitempty"`
	// Usage sums the decision's model requests.
	Usage    *CallUsage `json:"usage,omitempty"`
	Provider string     `json:"provider"`
	Model    string     `json:"model"`
	// Endpoint is the URL the decision was sent to (it carries no
	// credentials).
	Endpoint string `json:"endpoint"`
}

// DecisionRef names one decision.
type DecisionRef struct {
	DecisionID string `json:"decisionId"`
}
