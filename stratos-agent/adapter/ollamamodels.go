package adapter

import (
	"context"
	"strings"

	"github.com/stratoscli/stratos/shared/ollama"
)

// OllamaModels lists the models of the Ollama server environ names
// (OLLAMA_HOST, else 127.0.0.1:11434) from its /api/tags, for the
// ModelLister of every harness that reaches Ollama with its own names. The
// server is the one place the models can come from, so the list is
// complete: a model it lacks is not installed.
func OllamaModels(ctx context.Context, environ func() []string) (NativeModels, error) {
	env := environ()
	host, err := ollama.HostFromEnv(func(k string) string { return lookupEnv(env, k) })
	if err != nil {
		return NativeModels{}, err
	}
	names, err := ollama.Client{Host: host}.Names(ctx)
	if err != nil {
		return NativeModels{}, err
	}
	return NativeModels{Models: names, Complete: true, Source: "ollama " + host.String() + "/api/tags"}, nil
}

// lookupEnv is the last value of key in env ("" when absent).
func lookupEnv(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}
