package command

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/shared/jsonvalidate/verdict"
)

// A detached run's input is refused as the runtime refuses it: code
// input_validation, exit 2, every failing field listed.
func TestValidateInputIsTheRuntimesVerdict(t *testing.T) {
	schema := json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
		"properties":{"name":{"type":"string"},"count":{"type":"number","default":3}},"required":["name"],"additionalProperties":false}`)
	if err := validateInput("greet", schema, json.RawMessage(`{"name":"Ada"}`)); err != nil {
		t.Errorf("valid input: %v", err)
	}
	err := validateInput("greet", schema, json.RawMessage(`{"name":5,"loud":true}`))
	ce := clierr.As(err)
	if err == nil || ce.Code != runapi.CodeInputValidation || ce.Exit != clierr.ExitUsage ||
		!strings.HasPrefix(ce.Message, `invalid input for workflow "greet": field "loud": `) || !strings.Contains(ce.Message, `; field "name": `) {
		t.Fatalf("invalid input: %v (code %s, exit %d)", err, ce.Code, ce.Exit)
	}
	if issues, _ := ce.Details["issues"].([]verdict.Issue); len(issues) != 2 || ce.Details["workflow"] != "greet" {
		t.Errorf("details = %v", ce.Details)
	}
}
