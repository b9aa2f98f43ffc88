package catalog

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/stratos-models/data"
)

const commit = "f3fc692299671838c7c65fd8126bf84d81a2e817"

func sample() *Catalog {
	return &Catalog{
		Schema:    Schema,
		Source:    Source{Repository: "https://github.com/anomalyco/models.dev", Commit: commit},
		Providers: map[string]Provider{"anthropic": {Name: "Anthropic"}, "openai": {Name: "OpenAI"}},
		Models: map[string]*Model{
			"anthropic/claude-x": {Creator: "anthropic", Name: "Claude X", ToolCall: true,
				Modalities: Modalities{Input: []string{"text"}, Output: []string{"text"}},
				Providers:  map[string][]NativeID{"anthropic": {{ID: "claude-x", Origin: OriginStratos}}}},
			"openai/gpt-y": {Creator: "openai", Name: "GPT Y", Modalities: Modalities{Input: []string{"text"}, Output: []string{"image"}},
				Providers: map[string][]NativeID{}},
		},
	}
}

func TestEncodeLayoutAndIndexedLoad(t *testing.T) {
	b, err := sample().Encode()
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	if !strings.Contains(text, "\n  \"models\": {\n    \"anthropic/claude-x\": {\"creator\":\"anthropic\"") ||
		!strings.HasSuffix(text, "\"providers\":{}}\n  }\n}\n") {
		t.Fatalf("unexpected layout:\n%s", text)
	}
	if !json.Valid(b) {
		t.Fatal("encoded catalog is not valid JSON")
	}
	c, err := LoadIndexed(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Models) != 0 || len(c.pending) != 2 {
		t.Fatalf("indexed load decoded %d models eagerly", len(c.Models))
	}
	m, err := c.Model("anthropic/claude-x")
	if err != nil || !reflect.DeepEqual(m, sample().Models["anthropic/claude-x"]) {
		t.Fatalf("lazy model = %+v, %v", m, err)
	}
	if got := c.IDs(); !reflect.DeepEqual(got, []string{"anthropic/claude-x", "openai/gpt-y"}) {
		t.Errorf("IDs = %v", got)
	}
}

// Every model of the shipped catalog decodes the same way through the
// index as through a full decode.
func TestEmbeddedCatalogIndexedEqualsFull(t *testing.T) {
	full, err := Load(data.Catalog())
	if err != nil {
		t.Fatal(err)
	}
	indexed, err := LoadIndexed(data.Catalog())
	if err != nil {
		t.Fatal(err)
	}
	if indexed.pending == nil {
		t.Fatal("the shipped catalog is not in the indexed layout")
	}
	if !reflect.DeepEqual(full.IDs(), indexed.IDs()) || !reflect.DeepEqual(full.Source, indexed.Source) || !reflect.DeepEqual(full.Providers, indexed.Providers) {
		t.Fatal("header or IDs differ")
	}
	for _, id := range full.IDs() {
		m, err := indexed.Model(id)
		if err != nil || !reflect.DeepEqual(m, full.Models[id]) {
			t.Fatalf("%s differs: %v", id, err)
		}
	}
}

func TestLoadIndexedFallsBackToFullDecode(t *testing.T) {
	b, err := json.MarshalIndent(sample(), "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	c, err := LoadIndexed(b)
	if err != nil {
		t.Fatal(err)
	}
	if c.pending != nil || len(c.Models) != 2 {
		t.Fatalf("fallback did not decode fully: %d models", len(c.Models))
	}
}

func TestLoadRejectsBrokenInvariants(t *testing.T) {
	cases := map[string]func(*Catalog){
		"schema":    func(c *Catalog) { c.Schema = "other" },
		"no commit": func(c *Catalog) { c.Source.Commit = "" },
		"creator":   func(c *Catalog) { c.Models["anthropic/claude-x"].Creator = "openai" },
		"order": func(c *Catalog) {
			c.Models["anthropic/claude-x"].Providers["anthropic"] = []NativeID{{ID: "b", Origin: OriginStratos}, {ID: "a", Origin: OriginStratos}}
		},
		"origin": func(c *Catalog) { c.Models["anthropic/claude-x"].Providers["anthropic"][0].Origin = "guess" },
		"empty":  func(c *Catalog) { c.Models["anthropic/claude-x"].Providers["anthropic"] = []NativeID{} },
	}
	for name, edit := range cases {
		t.Run(name, func(t *testing.T) {
			c := sample()
			edit(c)
			b, err := c.Encode()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Load(b); err == nil {
				t.Error("Load accepted it")
			}
			// The indexed path checks a model when it is first used.
			ic, err := LoadIndexed(b)
			if err == nil {
				_, err = ic.Model("anthropic/claude-x")
			}
			if err == nil {
				t.Error("LoadIndexed + Model accepted it")
			}
		})
	}
}

func code(err error) (string, int) {
	var ce *clierr.Error
	if !errors.As(err, &ce) {
		return "", -1
	}
	return ce.Code, ce.Exit
}

func TestLookupErrorsAreDistinct(t *testing.T) {
	c := sample()
	_, err := c.NativeIDs("anthropic/claude-z", "anthropic")
	if cd, exit := code(err); cd != modelsapi.CodeUnknownModel || exit != clierr.ExitUsage || !strings.Contains(err.Error(), "(catalog "+commit+")") {
		t.Errorf("unknown model: %v (%s, %d)", err, cd, exit)
	}
	_, err = c.NativeIDs("anthropic/claude-x", "openai")
	if cd, exit := code(err); cd != modelsapi.CodeNoMapping || exit != clierr.ExitFailed || !strings.Contains(err.Error(), "no explicit mapping for anthropic/claude-x on provider openai (catalog "+commit+")") {
		t.Errorf("missing mapping: %v (%s, %d)", err, cd, exit)
	}
	_, err = c.NativeIDs("anthropic/claude-x", "nope")
	if cd, _ := code(err); cd != modelsapi.CodeUnknownProvider {
		t.Errorf("unknown provider: %v", err)
	}
	ids, err := c.NativeIDs("anthropic/claude-x", "anthropic")
	if err != nil || len(ids) != 1 || ids[0].ID != "claude-x" {
		t.Errorf("lookup = %v, %v", ids, err)
	}
}

func TestModelHelpers(t *testing.T) {
	c := sample()
	if !c.Models["anthropic/claude-x"].OutputsText() || c.Models["openai/gpt-y"].OutputsText() {
		t.Error("OutputsText")
	}
	if got := c.Models["anthropic/claude-x"].ProviderIDs(); !reflect.DeepEqual(got, []string{"anthropic"}) {
		t.Errorf("ProviderIDs = %v", got)
	}
}
