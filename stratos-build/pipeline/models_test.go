package pipeline

import (
	"reflect"
	"testing"
)

func TestDeclaredOllamaModels(t *testing.T) {
	section := map[string]any{
		"b": map[string]any{"provider": "ollama", "model": []any{"qwen3:8b", "llama3"}},
		"a": map[string]any{"provider": "ollama", "model": "qwen3:8b"},
		"c": map[string]any{"provider": "azure", "model": "openai/gpt-5"},
		"d": map[string]any{"model": "anthropic/claude-sonnet-4-5"},
	}
	got := declaredOllamaModels(section)
	if want := []string{"qwen3:8b", "llama3"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got := declaredOllamaModels(nil); got != nil {
		t.Errorf("no agents: %v", got)
	}
}
