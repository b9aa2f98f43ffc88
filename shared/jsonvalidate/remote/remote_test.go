package remote_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/jsonvalidate/remote"
	"github.com/stratoscli/stratos/shared/jsonvalidate/remote/remotetest"
	"github.com/stratoscli/stratos/shared/jsonvalidate/verdict"
	"github.com/stratoscli/stratos/shared/sibling"
)

func TestMain(m *testing.M) { remotetest.Main(m) }

const schema = `{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]}`

// A prepared schema's reply is read before the validation's own: each
// call gets its own verdict.
func TestValidatorAnswersAfterPrepare(t *testing.T) {
	v, err := remote.Start()
	if err != nil {
		t.Fatal(err)
	}
	v.Prepare(json.RawMessage(schema))
	v.Prepare(json.RawMessage(`{"type":"nope"}`))
	issues, err := v.Validate(json.RawMessage(schema), json.RawMessage(`{}`))
	if err != nil || verdict.Text(issues) != `field "n": required field is missing` {
		t.Errorf("Validate = %v, %v", issues, err)
	}
	issues, err = v.Validate(json.RawMessage(schema), json.RawMessage(`{"n":2}`))
	if err != nil || issues != nil {
		t.Errorf("a match = %v, %v; want nothing", issues, err)
	}
	_, err = v.Validate(json.RawMessage(`{"type":"nope"}`), json.RawMessage(`{}`))
	var se *remote.SchemaError
	if !errors.As(err, &se) {
		t.Errorf("a bad schema = %v, want a SchemaError", err)
	}
	issues, err = v.Validate(json.RawMessage(schema), json.RawMessage(`{`))
	if err != nil || len(issues) != 1 || !strings.HasPrefix(issues[0].Message, "not valid JSON: ") {
		t.Errorf("a torn value = %v, %v; want one issue", issues, err)
	}
	if _, err := v.Validate(json.RawMessage(schema), json.RawMessage(`{"n":1}`)); err != nil {
		t.Errorf("after a torn value: %v", err)
	}
	if err := v.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
}

func TestValidateOnce(t *testing.T) {
	issues, err := remote.Validate(json.RawMessage(schema), json.RawMessage(`{"n":"x"}`))
	if err != nil || verdict.Text(issues) != `field "n": got string, want number` {
		t.Errorf("Validate = %v, %v", issues, err)
	}
}

// Without the validator's binary, validation fails with the tool's
// code, not with a verdict.
func TestValidateWithoutTheValidator(t *testing.T) {
	t.Setenv(sibling.EnvBinDir, t.TempDir())
	t.Setenv("PATH", t.TempDir())
	if _, err := remote.Validate(json.RawMessage(schema), json.RawMessage(`{}`)); err == nil {
		t.Error("no error without the validator")
	}
}
