package qwen

import (
	"encoding/json"
	"strings"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
	"github.com/stratoscli/stratos/stratos-agent/jsonrpc"
)

// refusal reads a failed prompt: an endpoint that does not have the model
// (OpenAI-compatible APIs answer 404 "model_not_found" or "The model …
// does not exist") is a model-unavailable rejection (one the selector may
// pass on only before the turn did any work); one that refuses the key
// (401) is an authentication rejection.
func refusal(spec adapter.Spec, err *jsonrpc.RemoteError, stderr string, hadWork bool) error {
	text := err.Message + "\n" + string(err.Data) + "\n" + stderr
	model := ""
	if len(spec.Models) > 0 {
		model = spec.Models[0]
	}
	var r *rejection.Error
	switch {
	case isModelNotFound(text):
		r = rejection.New(rejection.ModelUnavailable, "agent %q: qwen: model %s is unavailable: %s", spec.Name, model, err.Message)
	case isAuthRefused(text):
		r = rejection.New(rejection.Authentication, "harness %s: the endpoint refused the credentials: %s", Harness, err.Message)
	default:
		return nil
	}
	r = r.WithDetails(map[string]any{"harness": Harness, "model": model})
	if hadWork {
		return r.Final()
	}
	return r
}

func isModelNotFound(text string) bool {
	return strings.Contains(text, "model_not_found") || (strings.Contains(text, "The model") && strings.Contains(text, "does not exist"))
}

func isAuthRefused(text string) bool {
	return strings.Contains(text, "401") && (strings.Contains(text, "invalid_api_key") || strings.Contains(text, "Incorrect API key"))
}

// usage reads the token counts Qwen Code puts in the _meta of the update
// that ends a model response (_meta.usage).
func usage(meta json.RawMessage) *eventapi.Tokens {
	var m struct {
		Usage *struct {
			Input     int64 `json:"inputTokens"`
			Output    int64 `json:"outputTokens"`
			CacheRead int64 `json:"cachedReadTokens"`
			Thought   int64 `json:"thoughtTokens"`
		} `json:"usage"`
	}
	if json.Unmarshal(meta, &m) != nil || m.Usage == nil {
		return nil
	}
	return &eventapi.Tokens{InputTokens: m.Usage.Input, OutputTokens: m.Usage.Output, CacheReadInputTokens: m.Usage.CacheRead, ReasoningOutputTokens: m.Usage.Thought}
}

// toolName is the tool's own name, which Qwen Code sends in every tool
// call update's _meta.toolName ("run_shell_command").
func toolName(meta json.RawMessage) string {
	var m struct {
		ToolName string `json:"toolName"`
	}
	if json.Unmarshal(meta, &m) != nil {
		return ""
	}
	return m.ToolName
}

// aside says a message chunk is Qwen Code's own notice, not the model's
// reply (_meta.qwenDiscreteMessage): a background task's end
// ("Background shell … failed.") and the answer of the turn the CLI
// starts about it by itself.
func aside(meta json.RawMessage) bool {
	var m struct {
		Discrete bool `json:"qwenDiscreteMessage"`
	}
	return json.Unmarshal(meta, &m) == nil && m.Discrete
}
