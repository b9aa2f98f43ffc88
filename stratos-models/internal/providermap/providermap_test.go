package providermap

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/stratos-models/data"
	"github.com/stratoscli/stratos/stratos-models/internal/catalog"
)

func shipped(t *testing.T) *Mapping {
	t.Helper()
	m, err := Parse(data.ProviderMapping())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestShippedMapping(t *testing.T) {
	const claudeCode, codex, gemini, openCode, qwen = "claude-code", "codex", "gemini", "opencode", "qwen"
	m := shipped(t)
	if got := m.HarnessIDs(); !reflect.DeepEqual(got, []string{claudeCode, codex, gemini, openCode, qwen}) {
		t.Fatalf("harnesses = %v", got)
	}
	env := func(h, p string) map[string]string { return m.Harnesses[h].Providers[p].Env }
	if env(claudeCode, "amazon-bedrock")["CLAUDE_CODE_USE_BEDROCK"] != "1" ||
		env(claudeCode, "google-vertex-anthropic")["CLAUDE_CODE_USE_VERTEX"] != "1" ||
		env(claudeCode, "azure-cognitive-services")["CLAUDE_CODE_USE_FOUNDRY"] != "1" ||
		len(env(claudeCode, "anthropic")) != 0 {
		t.Error("Claude Code backend flags are wrong")
	}
	for _, p := range []string{"openai", "azure", "ollama"} {
		if m.Harnesses[codex].Providers[p] == nil {
			t.Errorf("codex has no %s provider table", p)
		}
	}
	if hp := m.Harnesses[codex].Providers["ollama"]; hp.ModelProvider == "ollama" || !hp.NativeNames {
		t.Errorf("codex ollama = %+v (the id ollama is reserved by Codex)", hp)
	}
	if m.FirstPartyHarness("anthropic") != claudeCode || m.FirstPartyHarness("openai") != codex || m.FirstPartyHarness("alibaba") != qwen ||
		m.FirstPartyHarness("zhipuai") != "" {
		t.Error("first-party harnesses are wrong")
	}
	if m.SecondPassHarness() != openCode || !m.Harnesses[openCode].QualifiedModels {
		t.Error("opencode should take the second pass with provider-qualified model strings")
	}
}

// Every provider the mapping names must exist in the shipped catalog, except
// native-names providers (local Ollama is not a Models.dev provider).
func TestShippedMappingMatchesCatalog(t *testing.T) {
	m := shipped(t)
	cat, err := catalog.LoadIndexed(data.Catalog())
	if err != nil {
		t.Fatal(err)
	}
	creators := map[string]bool{}
	for _, id := range cat.IDs() {
		creators[strings.Split(id, "/")[0]] = true
	}
	for hid, h := range m.Harnesses {
		for p, hp := range h.Providers {
			if !hp.NativeNames && !cat.HasProvider(p) {
				t.Errorf("harness %s: provider %q is not in the catalog", hid, p)
			}
		}
		for c, p := range h.DefaultProviderByCreator {
			if !creators[c] || !cat.HasProvider(p) {
				t.Errorf("harness %s: default %s → %s names an unknown creator or provider", hid, c, p)
			}
		}
		if c := h.FirstPartyCreator; c != "" && !creators[c] {
			t.Errorf("harness %s: first-party creator %q has no models", hid, c)
		}
	}
	for p := range m.Providers {
		if !cat.HasProvider(p) {
			t.Errorf("provider rules for unknown provider %q", p)
		}
	}
}

func TestParseErrors(t *testing.T) {
	cases := map[string]string{
		`{"schema":"x","harnesses":{}}`: "schema is",
		`{"schema":"stratos.models.provider-mapping.v1","harnesses":{"a":{"name":"A","secondPass":true,"providers":{}},"b":{"name":"B","secondPass":true,"providers":{}}}}`:                    `both "a" and "b" take automatic selection's second pass`,
		`{"schema":"stratos.models.provider-mapping.v1","harnesses":{"a":{"name":"A","providers":{"p":{"providerId":"q"}}}}}`:                                                                  `provider "p" names providerId "q", but the harness's model strings are not qualified`,
		`{"schema":"stratos.models.provider-mapping.v1","harnesses":{"opencode":{"name":"A","provider":{}}}}`:                                                                                  "unknown field",
		`{"schema":"stratos.models.provider-mapping.v1","harnesses":{"opencode":{"name":"A","firstPartyCreator":"x","providers":{}},"b":{"name":"B","firstPartyCreator":"x","providers":{}}}}`: `creator "x" is first party for both`,
		`{"schema":"stratos.models.provider-mapping.v1","harnesses":{"opencode":{"name":"A","defaultProvider":"p","providers":{}}}}`:                                                           `default provider "p" is not one of its providers`,
	}
	for doc, want := range cases {
		if _, err := Parse([]byte(doc)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%s) = %v, want %q", doc, err, want)
		}
	}
}

func TestOrderAppliesVariantPreference(t *testing.T) {
	m := shipped(t)
	ids := []string{"anthropic.claude-opus-4-7", "eu.anthropic.claude-opus-4-7", "global.anthropic.claude-opus-4-7",
		"jp.anthropic.claude-opus-4-7", "us.anthropic.claude-opus-4-7"}
	same := func(s string) string { return s }
	got := Order(m, "amazon-bedrock", ids, same)
	want := []string{"global.anthropic.claude-opus-4-7", "us.anthropic.claude-opus-4-7", "anthropic.claude-opus-4-7",
		"eu.anthropic.claude-opus-4-7", "jp.anthropic.claude-opus-4-7"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("bedrock order = %v", got)
	}
	// Only jp. and au. linked: au. (byte order) would do as well as any;
	// the rule keeps the listed order among them.
	if got := Order(m, "amazon-bedrock", []string{"au.x", "jp.x"}, same); !reflect.DeepEqual(got, []string{"au.x", "jp.x"}) {
		t.Errorf("au/jp order = %v", got)
	}
	// Providers without rules keep byte order; the input is not modified.
	in := []string{"claude-opus-4-7", "claude-opus-4-7-fast"}
	if got := Order(m, "venice", in, same); !reflect.DeepEqual(got, in) {
		t.Errorf("venice order = %v", got)
	}
	Order(m, "amazon-bedrock", ids, same)
	if ids[0] != "anthropic.claude-opus-4-7" {
		t.Error("Order modified its input")
	}
}

func TestHarnessHelpers(t *testing.T) {
	m := shipped(t)
	cc, oc := m.Harnesses["claude-code"], m.Harnesses["opencode"]
	if !cc.RunsCreator("anthropic") || cc.RunsCreator("openai") || !oc.RunsCreator("zhipuai") {
		t.Error("RunsCreator")
	}
	if cc.Supports("openrouter", nil) || !oc.Supports("openrouter", nil) || oc.Supports("nope", func(string) bool { return false }) {
		t.Error("Supports")
	}
	if oc.DefaultProviderFor("google") != "google" || oc.DefaultProviderFor("zhipuai") != "" || cc.DefaultProviderFor("anthropic") != "anthropic" {
		t.Error("DefaultProviderFor")
	}
	if _, err := m.Harness("claude"); err == nil || !strings.Contains(err.Error(), "known: claude-code, codex, gemini, opencode") {
		t.Errorf("Harness(claude) = %v", err)
	}
}
