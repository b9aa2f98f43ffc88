package codex

import (
	"context"

	"github.com/stratoscli/stratos/shared/ollama"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// models is Codex's own model list: only for Ollama, the local server's
// models. Codex's model/list (app-server) answers for OpenAI and Azure
// with models it may fetch from the account's backend, which needs the
// user's credentials and the network, so those providers keep the
// packaged catalog (docs/design/harness-registration.md).
func models(opts Options) adapter.ModelLister {
	opts = opts.WithDefaults()
	return func(ctx context.Context, provider string) (adapter.NativeModels, error) {
		if provider != ollama.Provider {
			return adapter.NativeModels{}, adapter.ErrNoModelList
		}
		return adapter.OllamaModels(ctx, opts.Environ)
	}
}
