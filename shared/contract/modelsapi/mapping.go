package modelsapi

// HarnessProvider is the native configuration an adapter needs for one
// provider. Only the fields of the harness concerned are set.
type HarnessProvider struct {
	// Env holds Claude Code backend flags (names and literal values only;
	// never credentials).
	Env map[string]string `json:"env,omitempty"`
	// ModelProvider is Codex's model_provider ID; ProviderTable says where
	// its [model_providers.<id>] table comes from: "built-in", "user"
	// (copied from $CODEX_HOME/config.toml) or "stratos" (written by Stratos).
	ModelProvider string `json:"modelProvider,omitempty"`
	ProviderTable string `json:"providerTable,omitempty"`
	// ProviderID is the provider ID of a harness with qualified model
	// strings (HarnessRules.QualifiedModels: OpenCode) when it differs from
	// the key.
	ProviderID string `json:"providerId,omitempty"`
	// NativeNames means model names are the provider's own (Ollama tags):
	// no canonical ID, no catalog translation.
	NativeNames bool   `json:"nativeNames,omitempty"`
	Note        string `json:"note,omitempty"`
}

// HarnessRules are one harness's model and provider rules for harness
// selection: which creator's models prefer it, which it can run, which
// backend it uses when none is named and how it reaches each provider.
// Each harness declares its rules in its own package (its registration in
// stratos-agent); the provider mapping file of stratos-models carries a
// generated copy, and the agent host sends its registered harnesses' rules
// with every candidates request (docs/design/harness-registration.md).
type HarnessRules struct {
	// Name names the harness for people ("Claude Code").
	Name string `json:"name"`
	// FirstPartyCreator is the model creator whose models prefer this
	// harness in the first selection pass ("" for none).
	FirstPartyCreator string `json:"firstPartyCreator,omitempty"`
	// Creators limits the canonical models the harness can run; empty means
	// any creator.
	Creators []string `json:"creators,omitempty"`
	// DefaultProvider is the backend used when neither the agent nor the
	// adapter names one.
	DefaultProvider string `json:"defaultProvider,omitempty"`
	// DefaultProviderByCreator is consulted before DefaultProvider.
	DefaultProviderByCreator map[string]string `json:"defaultProviderByCreator,omitempty"`
	// CatalogProviders means every Models.dev provider ID is also a provider
	// ID of this harness (OpenCode reads the same catalog).
	CatalogProviders bool `json:"catalogProviders,omitempty"`
	// SecondPass means automatic selection tries every model through this
	// harness after the first-party pass, a pass named after the harness
	// (OpenCode, which runs every creator's models). At most one harness
	// takes it; without one, models of a creator with no first-party
	// harness have no candidate.
	SecondPass bool `json:"secondPass,omitempty"`
	// QualifiedModels means the harness's model string is
	// "<provider ID>/<native ID>" and the adapter gets the provider ID
	// (Native.ProviderID): the provider's key unless its entry names
	// another (HarnessProvider.ProviderID). OpenCode names models so.
	QualifiedModels bool                        `json:"qualifiedModels,omitempty"`
	Providers       map[string]*HarnessProvider `json:"providers"`
}

// HarnessRulesInput is what `stratos-models candidates --harness-rules -`
// reads on stdin: the rules of the harnesses the caller has registered,
// which replace the provider mapping's packaged copy for that request.
type HarnessRulesInput struct {
	Harnesses map[string]HarnessRules `json:"harnesses"`
}
