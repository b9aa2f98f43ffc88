package modelsapi

// MappingResult is the part of `stratos-models mapping --json` (the
// provider mapping file) that adapters read: per harness, how it reaches
// each provider.
type MappingResult struct {
	Harnesses map[string]struct {
		Providers map[string]HarnessProvider `json:"providers"`
	} `json:"harnesses"`
}

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
	// ProviderID is OpenCode's provider ID when it differs from the key.
	ProviderID string `json:"providerId,omitempty"`
	// NativeNames means model names are the provider's own (Ollama tags):
	// no canonical ID, no catalog translation.
	NativeNames bool   `json:"nativeNames,omitempty"`
	Note        string `json:"note,omitempty"`
}
