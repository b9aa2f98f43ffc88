package codex

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/stratoscli/stratos/shared/fakemodel"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// Codex has a list of its own only for Ollama: the server's models.
func TestModelsListOnlyOllama(t *testing.T) {
	s, err := fakemodel.ParseScript([]byte(`{"ollama": {"models": [{"name": "qwen3:8b"}, {"name": "llama3.2:latest"}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := fakemodel.Start(s, fakemodel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	env := []string{"OLLAMA_HOST=" + srv.URL}
	list := Registration(Options{Environ: func() []string { return env }}).Models
	got, err := list(context.Background(), "ollama")
	if err != nil {
		t.Fatal(err)
	}
	if !got.Complete || !slices.Equal(got.Models, []string{"qwen3:8b", "llama3.2:latest"}) {
		t.Errorf("ollama list = %+v", got)
	}
	for _, p := range []string{"openai", "azure"} {
		if _, err := list(context.Background(), p); !errors.Is(err, adapter.ErrNoModelList) {
			t.Errorf("%s: err = %v, want ErrNoModelList (the packaged catalog answers)", p, err)
		}
	}
}
