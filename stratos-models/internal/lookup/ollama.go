package lookup

import (
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/shared/ollama"
)

// NormalizeOllamaName is ollama.NormalizeName (an omitted tag is
// ":latest", nothing else changes) with the models tool's usage error, so
// the rule for Ollama names lives in one place for the tool and the
// adapters.
func NormalizeOllamaName(name string) (string, error) {
	normalized, err := ollama.NormalizeName(name)
	if err != nil {
		return "", clierr.Usage(modelsapi.CodeInvalidOllamaName, "%v", err).
			WithDetails(map[string]any{"model": name}).Wrap(err)
	}
	return normalized, nil
}
