package lookup

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/stratos-models/internal/catalog"
)

func TestResolveAppliesVariantPreference(t *testing.T) {
	d, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	// Upstream links only jp. for Opus 4.7; byte order of the catalog would
	// hand the first of anthropic., eu., global., jp., us. to everyone.
	res, err := d.Resolve("anthropic/claude-opus-4-7", "amazon-bedrock")
	if err != nil {
		t.Fatal(err)
	}
	if res.NativeID != "global.anthropic.claude-opus-4-7" || res.Alternatives[0].ID != res.NativeID || len(res.Alternatives) != 5 {
		t.Errorf("resolution = %+v", res)
	}
	res, err = d.Resolve("anthropic/claude-opus-4-6", "anthropic")
	if err != nil || res.NativeID != "claude-opus-4-6" || res.Origin != catalog.OriginStratos {
		t.Errorf("anthropic = %+v, %v", res, err)
	}
	res, err = d.Resolve("openai/gpt-5", "openai")
	if err != nil || res.Origin != catalog.OriginModelsDev || res.CatalogCommit != d.Catalog.Source.Commit {
		t.Errorf("openai = %+v, %v", res, err)
	}
	_, err = d.Resolve("openai/gpt-5", "anthropic")
	if ce := clierr.As(err); ce.Code != modelsapi.CodeNoMapping || !strings.Contains(ce.Message, d.Catalog.Source.Commit) {
		t.Errorf("missing mapping = %v", err)
	}
}

func TestResolveOllamaNames(t *testing.T) {
	d, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	res, err := d.Resolve("gemma4", "ollama")
	want := &Resolution{Model: "gemma4", Provider: "ollama", NativeID: "gemma4:latest", Origin: OriginOllama,
		Alternatives: []catalog.NativeID{{ID: "gemma4:latest", Origin: OriginOllama}}, CatalogCommit: d.Catalog.Source.Commit}
	if err != nil || !reflect.DeepEqual(res, want) {
		t.Errorf("resolve gemma4 = %+v, %v", res, err)
	}
	if err := d.CheckProvider("ollama"); err != nil {
		t.Error(err)
	}
	if err := d.CheckProvider("ollama-local"); err == nil {
		t.Error("unknown provider accepted")
	}
}

// TestNormalizeOllamaName checks the tool's error contract; the name rules
// themselves are shared/ollama's (tested there).
func TestNormalizeOllamaName(t *testing.T) {
	if got, err := NormalizeOllamaName("qwen3.5"); err != nil || got != "qwen3.5:latest" {
		t.Errorf("NormalizeOllamaName(qwen3.5) = %q, %v; want qwen3.5:latest", got, err)
	}
	for _, bad := range []string{"", "a b", "x:", ":tag", "a:b:c", "http://host/x", "dir/"} {
		_, err := NormalizeOllamaName(bad)
		if e := clierr.As(err); err == nil || e.Code != modelsapi.CodeInvalidOllamaName || e.Exit != clierr.ExitUsage {
			t.Errorf("NormalizeOllamaName(%q) = %v, want a usage error %s", bad, err, modelsapi.CodeInvalidOllamaName)
		}
	}
}
