package catalog

import (
	"errors"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/contract/modelsapi"
)

// A catalog that could not run, or a stratos-models of another install,
// is the harness's initialization failure (which the next execute
// retries), not the agent's configuration.
func TestClassify(t *testing.T) {
	for code, want := range map[string]string{
		errcode.CodeToolNotFound:         agentproto.CodeInitialization,
		errcode.CodeToolFailed:           agentproto.CodeInitialization,
		errcode.CodeToolProtocolMismatch: agentproto.CodeInitialization,
		modelsapi.CodeNoCandidates:       agentproto.CodeModelUnavailable,
		errcode.CodeUsage:                agentproto.CodeConfiguration,
	} {
		err := Classify("claude-code", clierr.New(code, "it failed"))
		var ae *agentproto.Error
		if !errors.As(err, &ae) || ae.Code != want {
			t.Errorf("%s: %v, want %s", code, err, want)
		}
	}
}
