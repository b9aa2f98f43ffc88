package codex

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/boundedread"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
)

// Provider IDs. Codex reserves openai, ollama and lmstudio for its built-in
// providers, so the provider Stratos defines for an API key in the
// environment has an ID of its own.
const (
	providerOpenAI  = "openai"
	providerAzure   = "azure"
	providerFromEnv = "stratos-openai"
	defaultBaseURL  = "https://api.openai.com/v1"
)

// provider is how the session reaches the model: the model_provider ID
// and, for a provider Stratos defines, its table (nil for the built-in
// OpenAI provider with the user's saved login).
type provider struct {
	ID    string
	Table map[string]any
	// LinkLogin: the built-in provider authenticates with the user's saved
	// Codex login, which the isolated home links to (never copies).
	LinkLogin bool
	// Config are thread configuration keys the provider needs (dotted
	// paths, e.g. the context window of a local model Codex has no
	// metadata for).
	Config map[string]any
	// proxy, when set, runs between Codex and the provider for the
	// session's lifetime.
	proxy io.Closer
	// Env are variables the app-server needs for this provider (the
	// proxy's token its env_key names).
	Env map[string]string
}

// keyVars are the environment variables holding an OpenAI API key, in the
// order they are preferred. App-server ignores both by itself, so
// Stratos names the variable as its provider's env_key.
var keyVars = []string{"OPENAI_API_KEY", "CODEX_API_KEY"}

// keyProvider is the provider for an API key in env: a Responses provider
// at OPENAI_BASE_URL (default the OpenAI API) whose key stays in the
// environment, named by env_key. ok is false without a key.
func keyProvider(env []string) (provider, bool) {
	for _, k := range keyVars {
		if lookupEnv(env, k) != "" {
			table := providerTable(env)
			table["env_key"] = k
			return provider{ID: providerFromEnv, Table: table}, true
		}
	}
	return provider{}, false
}

// loginProvider is the provider for the user's saved Codex login: the
// built-in OpenAI provider, or with OPENAI_BASE_URL a Responses provider
// at that URL that authenticates with the login (requires_openai_auth).
func loginProvider(env []string) provider {
	if lookupEnv(env, "OPENAI_BASE_URL") == "" {
		return provider{ID: providerOpenAI, LinkLogin: true}
	}
	table := providerTable(env)
	table["requires_openai_auth"] = true
	return provider{ID: providerFromEnv, Table: table, LinkLogin: true}
}

func providerTable(env []string) map[string]any {
	base := lookupEnv(env, "OPENAI_BASE_URL")
	if base == "" {
		base = defaultBaseURL
	}
	return map[string]any{"name": "OpenAI (Stratos)", "base_url": strings.TrimRight(base, "/"), "wire_api": "responses"}
}

// azureKeys are the [model_providers.<id>] fields Codex 0.171 accepts
// (ModelProviderInfo); anything else in the user's table is
// a configuration error rather than a silently dropped setting.
var azureKeys = map[string]bool{"name": true, "base_url": true, "env_key": true, "env_key_instructions": true,
	"experimental_bearer_token": true, "auth": true, "wire_api": true, "query_params": true, "http_headers": true,
	"env_http_headers": true, "request_max_retries": true, "stream_max_retries": true, "stream_idle_timeout_ms": true,
	"websocket_connect_timeout_ms": true, "requires_openai_auth": true, "supports_websockets": true}

// userCodexHome is the user's Codex home: $CODEX_HOME, else ~/.codex.
func userCodexHome(env []string) (string, error) {
	if h := lookupEnv(env, "CODEX_HOME"); h != "" {
		return h, nil
	}
	home := lookupEnv(env, "HOME")
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return "", err
		}
	}
	return filepath.Join(home, ".codex"), nil
}

// maxConfigBytes bounds $CODEX_HOME/config.toml, the user's Codex
// settings: kilobytes in practice (docs/files.md). Only a regular file is
// read; a FIFO there would block the agent's start.
const maxConfigBytes = 4 << 20

// azureProvider reads and validates the user's [model_providers.azure]
// table from $CODEX_HOME/config.toml: it
// must name a base_url, use the Responses API and take its key from an
// environment variable that is set. Nothing else of that file (MCP
// servers, hooks, profiles) is used. OpenAI keys and logins never stand in.
func azureProvider(env []string) (provider, error) {
	home, err := userCodexHome(env)
	if err != nil {
		return provider{}, azureConfigError("cannot locate the Codex home: %v", err)
	}
	file := filepath.Join(home, "config.toml")
	data, err := boundedread.RegularFile(file, maxConfigBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return provider{}, azureConfigError("%s does not exist; provider azure needs its [model_providers.azure] table", file)
	}
	if err != nil {
		return provider{}, azureConfigError("read %s: %v", file, err)
	}
	var doc struct {
		ModelProviders map[string]map[string]any `toml:"model_providers"`
	}
	if err := toml.Unmarshal(data, &doc); err != nil {
		return provider{}, azureConfigError("%s is not valid TOML: %v", file, err)
	}
	table, ok := doc.ModelProviders[providerAzure]
	if !ok {
		return provider{}, azureConfigError("%s has no [model_providers.azure] table", file)
	}
	if err := checkAzureTable(table, file); err != nil {
		return provider{}, err
	}
	key := table["env_key"].(string)
	if lookupEnv(env, key) == "" {
		return provider{}, rejection.New(rejection.Authentication,
			"harness codex: provider azure takes its key from $%s (env_key in %s), which is not set", key, file).
			WithDetails(map[string]any{"harness": Harness, "provider": providerAzure, "envKey": key})
	}
	return provider{ID: providerAzure, Table: table}, nil
}

func checkAzureTable(table map[string]any, file string) error {
	var unknown []string
	for k := range table {
		if !azureKeys[k] {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	switch {
	case len(unknown) > 0:
		return azureConfigError("%s: [model_providers.azure] has fields Codex does not know: %s", file, strings.Join(unknown, ", "))
	case !nonEmptyString(table["base_url"]):
		return azureConfigError("%s: [model_providers.azure] needs base_url", file)
	case table["wire_api"] != nil && table["wire_api"] != "responses":
		return azureConfigError("%s: [model_providers.azure] wire_api must be \"responses\", not %v", file, table["wire_api"])
	case !nonEmptyString(table["env_key"]):
		return azureConfigError("%s: [model_providers.azure] needs env_key, the environment variable holding the Azure key", file)
	}
	return nil
}

func nonEmptyString(v any) bool {
	s, ok := v.(string)
	return ok && strings.TrimSpace(s) != ""
}

func azureConfigError(format string, args ...any) error {
	return agentproto.Errorf(agentproto.CodeConfiguration, "harness codex: provider azure: %s", fmt.Sprintf(format, args...)).
		WithDetails(map[string]any{"harness": Harness, "provider": providerAzure})
}
