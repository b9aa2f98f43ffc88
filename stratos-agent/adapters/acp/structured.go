package acp

import (
	"encoding/json"
	"strings"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/process"
)

// withSchema asks for the value in the prompt itself: ACP has no
// structured-output request, so the agent host validates the final
// message (adapter.StructuredOutputSchema) and sends a failing value back
// with its errors (structuredOutputRetries).
func withSchema(prompt string, schema json.RawMessage) string {
	return prompt + "\n\nAnswer with only one JSON value that matches this JSON Schema, and no other text:\n" + string(schema)
}

// valueOf reads the final message as the JSON value (a Markdown code
// fence around it is tolerated).
func valueOf(text, name, harness string) (adapter.Result, error) {
	v := strings.TrimSpace(text)
	if strings.HasPrefix(v, "```") {
		v = strings.TrimPrefix(strings.TrimPrefix(v, "```json"), "```")
		v = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "```"))
	}
	if v == "" || !json.Valid([]byte(v)) {
		return adapter.Result{}, agentproto.Errorf(agentproto.CodeStructuredOutput,
			"agent %q: %s ended the turn without a JSON value for the output schema (final message: %q)", name, harness, process.Truncate(text, 200)).
			WithDetails(map[string]any{"harness": harness})
	}
	return adapter.Result{Value: json.RawMessage(v)}, nil
}
