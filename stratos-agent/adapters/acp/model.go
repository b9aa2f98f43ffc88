package acp

import (
	"context"
	"strings"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
)

// setModel chooses model for the new session with session/set_model. An
// agent that offers no models cannot be given one (a configuration error);
// a model it does not offer is unavailable, so selection can try the
// agent's next model.
func (s *session) setModel(ctx context.Context, c *conn, created newSessionResponse, model string) error {
	if created.Models == nil || len(created.Models.AvailableModels) == 0 {
		return agentproto.Errorf(agentproto.CodeConfiguration,
			"agent %q: harness %s cannot choose model %s: the agent offers no models in its session/new answer; pass its own model option in its arguments",
			s.spec.Name, s.agent.Harness, model).WithDetails(map[string]any{"harness": s.agent.Harness, "model": model})
	}
	id, ok := offeredModel(created.Models.AvailableModels, model)
	if !ok {
		return rejection.New(rejection.ModelUnavailable, "agent %q: harness %s does not offer model %s (it offers %s)",
			s.spec.Name, s.agent.Harness, model, strings.Join(modelIDs(created.Models.AvailableModels), ", ")).
			WithDetails(map[string]any{"harness": s.agent.Harness, "model": model})
	}
	if err := c.call(ctx, methodSessionSetModel, setModelRequest{SessionID: created.SessionID, ModelID: id}, nil); err != nil {
		return s.startError("session/set_model", err)
	}
	return nil
}

// offeredModel is the offered model ID model names: the ID itself, or the
// part of a canonical ID after its provider.
func offeredModel(offered []modelInfo, model string) (string, bool) {
	_, native, _ := strings.Cut(model, "/")
	for _, m := range offered {
		if m.ModelID == model || (native != "" && m.ModelID == native) {
			return m.ModelID, true
		}
	}
	return "", false
}

func modelIDs(offered []modelInfo) []string {
	out := make([]string, 0, len(offered))
	for _, m := range offered {
		out = append(out, m.ModelID)
	}
	return out
}
