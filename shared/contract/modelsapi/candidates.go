package modelsapi

// CandidatesResult is the JSON result of `stratos-models candidates
// --json`: the combinations an agent will try, in order.
type CandidatesResult struct {
	CatalogCommit string      `json:"catalogCommit"`
	Harness       string      `json:"harness,omitempty"`
	Provider      string      `json:"provider,omitempty"`
	Candidates    []Candidate `json:"candidates"`
	Excluded      []Exclusion `json:"excluded"`
	Note          string      `json:"note"`
}

// Candidate is one harness, model and provider combination to try.
type Candidate struct {
	Harness  string `json:"harness"`
	Model    string `json:"model"`
	Provider string `json:"provider"`
	NativeID string `json:"nativeId"`
	Origin   string `json:"origin"`
	// Cost is the provider's price for NativeID, for pricing turns whose
	// harness reports no cost (absent: the catalog states none).
	Cost        *Price `json:"cost,omitempty"`
	Pass        string `json:"pass"`
	Eligibility string `json:"eligibility"`
	Native      Native `json:"native"`
	// Source names what answered for the candidate: SourcePackaged or
	// SourceConfigured from stratos-models; the agent host names the
	// harness's own model list instead when it consulted one
	// (docs/design/harness-registration.md).
	Source string `json:"source"`
}

// Candidate sources (Candidate.Source) stratos-models reports.
const (
	// SourcePackaged: the packaged Models.dev catalog and provider mapping.
	SourcePackaged = "packaged catalog"
	// SourceConfigured: a provider-native name taken as configured (Ollama
	// tags), which no catalog lists.
	SourceConfigured = "configured name"
)

// NativeModel is the model string the harness gets.
func (c Candidate) NativeModel() string {
	if c.Native.Model != "" {
		return c.Native.Model
	}
	return c.NativeID
}

// Native is the harness's own configuration of a candidate; only the
// fields of the harness concerned are set.
type Native struct {
	Model         string            `json:"model"`                   // the harness's model string
	Env           map[string]string `json:"env,omitempty"`           // Claude Code backend flags
	ModelProvider string            `json:"modelProvider,omitempty"` // Codex model_provider
	ProviderTable string            `json:"providerTable,omitempty"` // Codex: built-in | user | stratos
	ProviderID    string            `json:"providerId,omitempty"`    // provider ID of qualified model strings (OpenCode)
}

// Exclusion is a combination that was considered and cannot be used.
type Exclusion struct {
	Harness  string `json:"harness"`
	Model    string `json:"model"`
	Provider string `json:"provider,omitempty"`
	Reason   string `json:"reason"`
	Message  string `json:"message"`
}

// Exclusion reasons (Exclusion.Reason).
const (
	ReasonNoToolCall          = "no_tool_call"
	ReasonNoTextOutput        = "no_text_output"
	ReasonHarnessIncompatible = "harness_incompatible"
	ReasonNoDefaultProvider   = "no_default_provider"
	ReasonProviderUnsupported = "provider_unsupported"
	ReasonNoMapping           = CodeNoMapping
)
