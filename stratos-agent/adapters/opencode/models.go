package opencode

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strings"

	"github.com/stratoscli/stratos/shared/procgroup"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// models is OpenCode's own model list for one provider: for the local
// Ollama provider (Stratos's own, filled from the server) the server's
// models, for any other `opencode models <provider>` run in an isolated
// configuration like the server's. OpenCode lists only the providers it
// can authenticate, so a provider without a credential has no list here
// (adapter.ErrNoModelList): Initialize reports the missing credential.
func models(opts Options) adapter.ModelLister {
	opts = opts.WithDefaults()
	return func(ctx context.Context, provider string) (adapter.NativeModels, error) {
		if provider == providerOllama {
			return adapter.OllamaModels(ctx, opts.Environ)
		}
		return listModels(ctx, opts.Environ(), provider)
	}
}

// listModels runs `opencode models <provider>`. The list is complete: it is
// the catalog snapshot OpenCode itself resolves models from (model fetches
// are off in the isolated configuration, as for the server).
func listModels(ctx context.Context, env []string, provider string) (adapter.NativeModels, error) {
	source := "opencode models " + provider
	creds, err := checkAuth(env, provider)
	if err != nil {
		return adapter.NativeModels{}, adapter.ErrNoModelList
	}
	bin, err := findBinary(env)
	if err != nil {
		return adapter.NativeModels{}, err
	}
	iso, err := newIsolation(creds, "")
	if err != nil {
		return adapter.NativeModels{}, fmt.Errorf("%s: isolated configuration: %w", source, err)
	}
	defer iso.remove()
	config, err := json.Marshal(map[string]any{"autoupdate": false, "share": "disabled", "enabled_providers": []string{provider}})
	if err != nil {
		return adapter.NativeModels{}, err
	}
	cmd := exec.CommandContext(ctx, bin, "models", provider)
	cmd.Env = without(iso.env(env, config, ""), envPassword)
	cmd.Dir = iso.path("home")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := procgroup.Output(cmd, procgroup.Options{})
	switch {
	case ctx.Err() != nil:
		return adapter.NativeModels{}, fmt.Errorf("%s: %w", source, ctx.Err())
	case err != nil:
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			err = errors.New(firstLine(stderr.String(), err.Error()))
		}
		return adapter.NativeModels{}, fmt.Errorf("%s: %w", source, err)
	}
	return adapter.NativeModels{Models: modelLines(out, provider), Complete: true, Source: source}, nil
}

// modelLines are the output's "<provider>/<model>" lines.
func modelLines(out []byte, provider string) []string {
	var models []string
	for line := range strings.Lines(string(out)) {
		if line = strings.TrimSpace(line); strings.HasPrefix(line, provider+"/") {
			models = append(models, line)
		}
	}
	return models
}

// ansi matches the colour codes OpenCode writes around its errors.
var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// firstLine is s's first non-empty line without terminal colours, else
// fallback.
func firstLine(s, fallback string) string {
	for line := range strings.Lines(s) {
		line = strings.TrimSpace(ansi.ReplaceAllString(line, ""))
		if line != "" {
			return line
		}
	}
	return fallback
}
