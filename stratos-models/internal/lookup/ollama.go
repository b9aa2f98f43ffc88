package lookup

import (
	"strings"
	"unicode"

	"github.com/stratoscli/stratos/shared/contract/modelsapi"
)

// NormalizeOllamaName returns an Ollama model name with its tag: as in
// Ollama, an omitted tag means ":latest". Nothing else changes — the name is
// the user's installed model, never a translated canonical ID. Only the last
// path segment can carry the tag (a registry host may have a port).
func NormalizeOllamaName(name string) (string, error) {
	if name == "" || strings.IndexFunc(name, unicode.IsSpace) >= 0 || strings.Contains(name, "://") {
		return "", usage(modelsapi.CodeInvalidOllamaName, "invalid Ollama model name %q: want <name>[:<tag>], e.g. qwen3.5:9b", name)
	}
	last := name[strings.LastIndex(name, "/")+1:]
	switch strings.Count(last, ":") {
	case 0:
		if last == "" {
			return "", usage(modelsapi.CodeInvalidOllamaName, "invalid Ollama model name %q: it ends with '/'", name)
		}
		return name + ":latest", nil
	case 1:
		base, tag, _ := strings.Cut(last, ":")
		if base == "" || tag == "" {
			return "", usage(modelsapi.CodeInvalidOllamaName, "invalid Ollama model name %q: empty name or tag around ':'", name)
		}
		return name, nil
	default:
		return "", usage(modelsapi.CodeInvalidOllamaName, "invalid Ollama model name %q: more than one ':' in %q", name, last)
	}
}
