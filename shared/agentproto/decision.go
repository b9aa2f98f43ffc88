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
// decision section of workflow.yaml, the invocation's decision overrides,
// or the call's options. Nil fields are not given by that layer.
type DecisionConfig struct {
	// Provider chooses the backend: "ollama".
	Provider *string `json:"provider,omitempty"`
	// Model is the provider's model (an installed Ollama name).
	Model *string `json:"model,omitempty"`
	// BaseURL is the endpoint; for Ollama it may carry a path prefix.
	BaseURL *string `json:"baseUrl,omitempty"`
	// Samples is how many answers to ask for (1–15).
	Samples *int `json:"samples,omitempty"`
	// Retries is how many times an invalid answer is asked again, per
	// sample (0–10).
	Retries *int `json:"retries,omitempty"`
	// TimeoutMs bounds the whole decision.
	TimeoutMs   *int     `json:"timeoutMs,omitempty"`
	Temperature *float64 `json:"temperature,omitempty"`
	Seed        *int64   `json:"seed,omitempty"`
	// Reasons asks the model for its reasons beside the answer.
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
