package opencode

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/boundedread"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
)

// keyVars are the environment variables OpenCode's catalog reads a
// provider's API key from (GET /provider → all[].env in 1.18.33), for the
// providers Stratos selects; any other provider is looked up as
// <ID>_API_KEY.
var keyVars = map[string][]string{
	"openai":         {"OPENAI_API_KEY"},
	"anthropic":      {"ANTHROPIC_API_KEY"},
	"google":         {"GOOGLE_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY", "GEMINI_API_KEY"},
	"openrouter":     {"OPENROUTER_API_KEY"},
	"groq":           {"GROQ_API_KEY"},
	"mistral":        {"MISTRAL_API_KEY"},
	"xai":            {"XAI_API_KEY"},
	"deepseek":       {"DEEPSEEK_API_KEY"},
	"github-copilot": {"GITHUB_TOKEN"},
	"azure":          {"AZURE_API_KEY"},
	"amazon-bedrock": {"AWS_BEARER_TOKEN_BEDROCK", "AWS_ACCESS_KEY_ID"},
	"opencode":       {"OPENCODE_API_KEY"},
}

// credentials is how the session authenticates to its provider.
type credentials struct {
	// StoredFile is the user's OpenCode credentials file when the
	// provider's credential is stored there; the isolated data directory
	// links to it (OpenCode reads and refreshes it in place, Stratos never
	// holds a copy).
	StoredFile string
}

// checkAuth finds a usable credential for provider without reading one:
// a key variable set in the environment, or an entry for the provider in
// OpenCode's credentials (OPENCODE_AUTH_CONTENT, else auth.json), of which
// only the provider IDs and credential types are decoded. The local
// Ollama provider needs none.
func checkAuth(env []string, provider string) (credentials, error) {
	if provider == providerOllama {
		return credentials{}, nil
	}
	vars, ok := keyVars[provider]
	if !ok {
		vars = []string{strings.ToUpper(strings.ReplaceAll(provider, "-", "_")) + "_API_KEY"}
	}
	for _, v := range vars {
		if lookupEnv(env, v) != "" {
			return credentials{}, nil
		}
	}
	if content := lookupEnv(env, "OPENCODE_AUTH_CONTENT"); content != "" {
		if storedTypes([]byte(content))[provider] != "" {
			return credentials{}, nil
		}
		return credentials{}, noAuth(provider, vars)
	}
	file, err := authFile(env)
	if err != nil {
		return credentials{}, noAuth(provider, vars)
	}
	data, err := boundedread.RegularFile(file, maxAuthFileBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return credentials{}, noAuth(provider, vars)
	case err != nil:
		return credentials{}, agentproto.Errorf(agentproto.CodeInitialization, "harness opencode: read the credentials list %s: %v", file, err).Wrap(err)
	}
	if storedTypes(data)[provider] == "" {
		return credentials{}, noAuth(provider, vars)
	}
	return credentials{StoredFile: file}, nil
}

// storedTypes maps each provider of an OpenCode credentials document to
// its credential type (api, oauth, wellknown); the credentials themselves
// are never decoded.
func storedTypes(data []byte) map[string]string {
	var doc map[string]struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(data, &doc) != nil {
		return nil
	}
	out := make(map[string]string, len(doc))
	for id, e := range doc {
		out[id] = e.Type
	}
	return out
}

// maxAuthFileBytes bounds OpenCode's credentials file: a few entries,
// kilobytes in practice (docs/files.md). Only a regular file is read; a
// FIFO there would block the agent's start.
const maxAuthFileBytes = 1 << 20

// authFile is the user's OpenCode credentials file:
// $XDG_DATA_HOME/opencode/auth.json, by default under ~/.local/share.
func authFile(env []string) (string, error) {
	data := lookupEnv(env, "XDG_DATA_HOME")
	if data == "" {
		home := lookupEnv(env, "HOME")
		if home == "" {
			var err error
			if home, err = os.UserHomeDir(); err != nil {
				return "", err
			}
		}
		data = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(data, "opencode", "auth.json"), nil
}

func noAuth(provider string, vars []string) error {
	return rejection.New(rejection.Authentication,
		"harness opencode has no usable authentication for provider %s: set %s, or log in with `opencode auth login`",
		provider, strings.Join(vars, " or ")).WithDetails(map[string]any{"harness": Harness, "provider": provider})
}
