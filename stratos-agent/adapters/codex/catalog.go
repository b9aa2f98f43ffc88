package codex

import (
	"context"
	"errors"
	"io"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/sibling"
)

// Catalog is what the adapter needs from the model catalog
// (stratos-models): the ordered Codex candidates of an agent's model list.
type Catalog interface {
	// Candidates returns the codex candidates for models, in try order.
	// provider is the agent's explicit provider ("" = OpenAI).
	Candidates(ctx context.Context, models []string, provider string) ([]Candidate, error)
}

// Candidate is one model to try: its canonical ID, and the native model
// and model_provider Codex gets.
type Candidate struct {
	Model         string
	Provider      string
	NativeID      string
	ModelProvider string
}

// siblingCatalog runs `stratos-models` with JSON (modules never import each
// other).
type siblingCatalog struct{ stderr io.Writer }

type candidatesDoc struct {
	Candidates []struct {
		Model    string `json:"model"`
		Provider string `json:"provider"`
		NativeID string `json:"nativeId"`
		Native   struct {
			Model         string `json:"model"`
			ModelProvider string `json:"modelProvider"`
		} `json:"native"`
	} `json:"candidates"`
}

func (c siblingCatalog) Candidates(ctx context.Context, models []string, provider string) ([]Candidate, error) {
	args := []string{"candidates", "--harness", Harness, "--json"}
	for _, m := range models {
		args = append(args, "--model", m)
	}
	if provider != "" {
		args = append(args, "--provider", provider)
	}
	var doc candidatesDoc
	if err := sibling.RunJSON(ctx, "stratos-models", args, nil, &doc, c.stderr); err != nil {
		return nil, catalogError(err)
	}
	out := make([]Candidate, len(doc.Candidates))
	for i, cd := range doc.Candidates {
		native := cd.Native.Model
		if native == "" {
			native = cd.NativeID
		}
		out[i] = Candidate{Model: cd.Model, Provider: cd.Provider, NativeID: native, ModelProvider: cd.Native.ModelProvider}
	}
	return out, nil
}

// catalogError gives a catalog failure the agent error code it means.
func catalogError(err error) error {
	var ce *clierr.Error
	if !errors.As(err, &ce) {
		return agentproto.Errorf(agentproto.CodeInitialization, "harness codex: model catalog: %v", err).Wrap(err)
	}
	code := agentproto.CodeConfiguration
	switch ce.Code {
	case "no_mapping", "no_candidates":
		code = agentproto.CodeModelUnavailable
	case "tool_not_found", "tool_failed":
		code = agentproto.CodeInitialization
	}
	return agentproto.Errorf(code, "harness codex: %s", ce.Message).WithDetails(ce.Details).Wrap(err)
}
