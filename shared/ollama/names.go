package ollama

import (
	"fmt"
	"strings"
	"unicode"
)

// NormalizeName returns an Ollama model name with its tag: as in Ollama,
// an omitted tag means ":latest". Nothing else changes: the name is the
// user's installed model, never a translated canonical ID. Only the last
// path segment carries the tag (a registry host may have a port).
func NormalizeName(name string) (string, error) {
	bad := func(why string) error {
		return &Error{Code: CodeInvalidName, Models: []string{name},
			msg: fmt.Sprintf("invalid model name %q: %s", name, why)}
	}
	if name == "" || strings.IndexFunc(name, unicode.IsSpace) >= 0 || strings.Contains(name, "://") {
		return "", bad("want <name>[:<tag>], e.g. qwen3.5:9b")
	}
	last := name[strings.LastIndex(name, "/")+1:]
	switch strings.Count(last, ":") {
	case 0:
		if last == "" {
			return "", bad("it ends with '/'")
		}
		return name + ":latest", nil
	case 1:
		if base, tag, _ := strings.Cut(last, ":"); base == "" || tag == "" {
			return "", bad("empty name or tag around ':'")
		}
		return name, nil
	}
	return "", bad("more than one ':' in " + last)
}

// Provider is the provider name agents configure for Ollama models.
const Provider = "ollama"
