package gemini

import (
	"encoding/json"
	"strings"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
	"github.com/stratoscli/stratos/stratos-agent/jsonrpc"
)

// Over ACP, Gemini CLI answers a prompt whose model the API does not have
// with code 500 and the API's message alone ("models/<id> is not found
// for API version v1beta, …", the Gemini API's NOT_FOUND wording); the
// class of the error (ModelNotFoundError) reaches only its stderr, and
// not always before the answer. Either identifies it.
const (
	modelNotFound        = "ModelNotFoundError"
	modelNotFoundMessage = "is not found for API version"
)

// refusal reads a failed prompt: a model the API does not have is a
// model-unavailable rejection (one the selector may pass on only before
// the turn did any work).
func refusal(spec adapter.Spec, err *jsonrpc.RemoteError, stderr string, hadWork bool) error {
	if !strings.Contains(stderr, modelNotFound) && !strings.Contains(err.Message, modelNotFoundMessage) {
		return nil
	}
	model := ""
	if len(spec.Models) > 0 {
		model = spec.Models[0]
	}
	r := rejection.New(rejection.ModelUnavailable, "agent %q: gemini: model %s is unavailable: %s", spec.Name, model, err.Message).
		WithDetails(map[string]any{"harness": Harness, "model": model})
	if hadWork {
		return r.Final()
	}
	return r
}

// usage reads Gemini CLI's token counts from the prompt answer's
// _meta.quota.token_count.
func usage(meta json.RawMessage) *eventapi.Tokens {
	var m struct {
		Quota struct {
			TokenCount *struct {
				Input  int64 `json:"input_tokens"`
				Output int64 `json:"output_tokens"`
			} `json:"token_count"`
		} `json:"quota"`
	}
	if json.Unmarshal(meta, &m) != nil || m.Quota.TokenCount == nil {
		return nil
	}
	return &eventapi.Tokens{InputTokens: m.Quota.TokenCount.Input, OutputTokens: m.Quota.TokenCount.Output}
}

// toolName is the tool's own name, which Gemini CLI puts before "__" in
// its tool call IDs ("run_shell_command__<call id>"); else the call's
// ACP kind.
func toolName(id, kind string) string {
	if name, _, ok := strings.Cut(id, "__"); ok && name != "" {
		return name
	}
	return kind
}
