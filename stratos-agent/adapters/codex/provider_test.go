package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
)

// withoutEnv returns env minus the named variables.
func withoutEnv(env []string, keys ...string) []string {
	var out []string
	for _, kv := range env {
		drop := false
		for _, k := range keys {
			drop = drop || strings.HasPrefix(kv, k+"=")
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return out
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if got := agentproto.CodeOf(err); got != code {
		t.Fatalf("error code = %q, want %q (error: %v)", got, code, err)
	}
}

func TestMissingAuthenticationIsAnAuthenticationError(t *testing.T) {
	b := newBed(t, `{"turns":[]}`)
	b.Env = withoutEnv(b.Env, "OPENAI_API_KEY", "OPENAI_BASE_URL")
	a, err := b.make(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = a.Initialize(b.Context())
	wantCode(t, err, agentproto.CodeAuthentication)
	if !strings.Contains(err.Error(), "codex login status") {
		t.Errorf("error does not say how it checked: %v", err)
	}
}

func TestASavedLoginIsLinkedIntoTheIsolatedHome(t *testing.T) {
	b := newBed(t, `{"turns":[]}`)
	b.Env = withoutEnv(b.Env, "OPENAI_API_KEY", "OPENAI_BASE_URL")
	userHome := filepath.Join(b.Home, ".codex")
	if err := os.MkdirAll(userHome, 0o700); err != nil {
		t.Fatal(err)
	}
	// The user logs in the way Codex offers (the key goes in on stdin).
	login := codexCommand(t, b, userHome, "login", "--with-api-key")
	login.Stdin = strings.NewReader("sk-fake-login\n")
	if out, err := login.CombinedOutput(); err != nil {
		t.Fatalf("codex login: %v\n%s", err, out)
	}
	a, err := b.make(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Initialize(b.Context()); err != nil {
		t.Fatal(err)
	}
	s := a.(*session)
	target, err := os.Readlink(filepath.Join(s.home, "auth.json"))
	if err != nil || target != filepath.Join(userHome, "auth.json") {
		t.Errorf("auth.json in the isolated home links to %q (%v)", target, err)
	}
	home := s.home
	_ = a.Close(b.Context())
	if _, err := os.Stat(home); !os.IsNotExist(err) {
		t.Errorf("the isolated home %s survived Close: %v", home, err)
	}
	if _, err := os.Stat(filepath.Join(userHome, "auth.json")); err != nil {
		t.Errorf("the user's login went away: %v", err)
	}
}

// azureBed writes the user's Codex config with an Azure table pointing at
// the fake, and removes every OpenAI credential from the environment.
func azureBed(t *testing.T, script, table string) *bed {
	b := newBed(t, script)
	b.Env = append(withoutEnv(b.Env, "OPENAI_BASE_URL"), "AZURE_OPENAI_API_KEY=az-fake-000")
	dir := filepath.Join(b.Home, ".codex")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	table = strings.ReplaceAll(table, "URL", b.Server.URL)
	cfg := "model = \"ignored\"\n[mcp_servers.ambient]\ncommand = \"false\"\n" + table
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return b
}

const azureTable = `
[model_providers.azure]
name = "Azure"
base_url = "URL/openai"
env_key = "AZURE_OPENAI_API_KEY"
query_params = { api-version = "2025-04-01-preview" }
wire_api = "responses"
`

func TestAzureUsesOnlyTheUsersAzureTable(t *testing.T) {
	b := azureBed(t, `{"turns":[{"match":{"model":"my-deployment"},"reply":[{"text":"from azure"}]}]}`, azureTable)
	a := b.open(nil, func(s *adapter.Spec) { s.Provider = "azure"; s.Models = []string{"openai/my-deployment"} })
	res, err := a.Execute(b.Context(), "hi")
	if err != nil || res.Text != "from azure" {
		t.Fatalf("execute = %+v, %v", res, err)
	}
	e := b.Server.Log().Entries()[0]
	if e.Path != "/openai/responses" || e.Query != "api-version=2025-04-01-preview" || e.Auth != "bearer" {
		t.Errorf("request = %s?%s auth %s", e.Path, e.Query, e.Auth)
	}
	for _, tool := range e.Tools {
		if strings.Contains(tool, "ambient") {
			t.Errorf("the user's own MCP server reached the session: %v", e.Tools)
		}
	}
}

func TestAzureConfigurationProblemsAreExplicit(t *testing.T) {
	cases := []struct {
		name, table, code, says string
		env                     func([]string) []string
	}{
		{"no table", "", agentproto.CodeConfiguration, "no [model_providers.azure] table", nil},
		{"no env_key", strings.ReplaceAll(azureTable, `env_key = "AZURE_OPENAI_API_KEY"`, ""), agentproto.CodeConfiguration, "needs env_key", nil},
		{"chat wire", strings.ReplaceAll(azureTable, `"responses"`, `"chat"`), agentproto.CodeConfiguration, "wire_api", nil},
		{"unknown field", azureTable + "colour = \"blue\"\n", agentproto.CodeConfiguration, "colour", nil},
		// An OpenAI key in the environment never stands in for Azure's.
		{"key missing", azureTable, agentproto.CodeAuthentication, "$AZURE_OPENAI_API_KEY",
			func(env []string) []string { return withoutEnv(env, "AZURE_OPENAI_API_KEY") }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := azureBed(t, `{"turns":[]}`, c.table)
			if c.env != nil {
				b.Env = c.env(b.Env)
			}
			a, err := b.make(nil, func(s *adapter.Spec) { s.Provider = "azure" })
			if err != nil {
				t.Fatal(err)
			}
			err = a.Initialize(b.Context())
			wantCode(t, err, c.code)
			if !strings.Contains(err.Error(), c.says) {
				t.Errorf("error %q does not say %q", err, c.says)
			}
		})
	}
}

func TestModelNotFoundIsARejectionTheSelectorMayPassOn(t *testing.T) {
	b := newBed(t, `{"turns":[{"repeat":true,"match":{"model":"gpt-gone"},"error":{"kind":"not_found"}}]}`)
	a := b.open(nil, func(s *adapter.Spec) { s.Models = []string{"openai/gpt-gone"} })
	_, err := a.Execute(b.Context(), "hi")
	wantCode(t, err, agentproto.CodeModelUnavailable)
	if r, ok := rejection.As(err); !ok || r.Reason != rejection.ModelUnavailable || !r.TryNext {
		t.Errorf("error %v is not a model-unavailable rejection the selector may pass on (%+v)", err, r)
	}
}

func TestModelNotFoundAfterWorkIsFinal(t *testing.T) {
	b := newBed(t, `{"turns":[
		{"match":{"marker":"[work]"},"reply":[{"toolUse":{"name":"exec_command","input":{"cmd":"echo worked"}}}]},
		{"match":{"marker":"[work]"},"error":{"kind":"not_found"}}]}`)
	a := b.open(nil, nil)
	_, err := a.Execute(b.Context(), "[work] go")
	wantCode(t, err, agentproto.CodeModelUnavailable)
	if rejection.TryNext(err) {
		t.Errorf("a rejection after tool work lets the selector repeat the prompt elsewhere: %v", err)
	}
}
