package opencode

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/fakemodel"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// The real `opencode models <provider>`, in the isolated configuration: the
// provider's models as OpenCode names them, a complete list.
func TestModelsListsTheProvidersModelsFromTheRealCLI(t *testing.T) {
	env := []string{"PATH=" + os.Getenv("PATH"), EnvBinary + "=" + opencodeBin(t), "HOME=" + t.TempDir(), "ANTHROPIC_API_KEY=test-key"}
	list := models(Options{Environ: func() []string { return env }})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	got, err := list(ctx, "anthropic")
	if err != nil {
		t.Fatal(err)
	}
	if !got.Complete || got.Source != "opencode models anthropic" || !got.Has("anthropic/claude-haiku-4-5") {
		t.Errorf("list = %+v", got)
	}
	for _, m := range got.Models {
		if filepath.Dir(m) != "anthropic" {
			t.Errorf("%s is not an anthropic model string", m)
		}
	}
	// Without a credential OpenCode lists nothing for the provider: no
	// list, so the packaged catalog answers and Initialize reports the
	// missing key.
	if _, err := list(ctx, "openai"); !errors.Is(err, adapter.ErrNoModelList) {
		t.Errorf("openai without a key: err = %v, want ErrNoModelList", err)
	}
}

// A hung `opencode models` ends with its context.
func TestModelsEndsAHungCLIWithItsContext(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "opencode")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\nexec sleep 600\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + os.Getenv("PATH"), EnvBinary + "=" + bin, "ANTHROPIC_API_KEY=test-key"}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := models(Options{Environ: func() []string { return env }})(ctx, "anthropic")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the deadline", err)
	}
}

// The Stratos-managed Ollama provider's list is the server's.
func TestModelsOfOllamaAreTheServersTags(t *testing.T) {
	s, err := fakemodel.ParseScript([]byte(`{"ollama": {"models": [{"name": "qwen3:8b"}, {"name": "gpt-oss:120b-cloud", "remote": true}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := fakemodel.Start(s, fakemodel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	env := []string{"OLLAMA_HOST=" + srv.URL}
	got, err := models(Options{Environ: func() []string { return env }})(context.Background(), providerOllama)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Complete || !slices.Equal(got.Models, []string{"qwen3:8b"}) || got.Source != "ollama "+srv.URL+"/api/tags" {
		t.Errorf("list = %+v", got)
	}
}
