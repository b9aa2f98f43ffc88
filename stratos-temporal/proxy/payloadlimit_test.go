package proxy

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"go.temporal.io/api/serviceerror"

	"github.com/stratoscli/stratos/shared/agentproto"
)

func TestExecuteFailureNamesAPayloadTheServerRefused(t *testing.T) {
	cases := []struct {
		name, code, says string
		err              error
	}{
		{"the request", agentproto.CodeProtocol, "refused the execute's request, 3146633 bytes",
			fmt.Errorf("start: %w", serviceerror.NewInvalidArgument("Blob data size exceeds limit."))},
		{"the answer", agentproto.CodeExecution, "the agent ran, but the Temporal server refused its answer",
			errors.New("workflow execution error (type: stratos.execute): activity error (type: stratos.agentExecute): Complete result exceeds size limit.")},
		{"another invalid argument", agentproto.CodeInternal, "execute E): WorkflowId is not set",
			serviceerror.NewInvalidArgument("WorkflowId is not set")},
		{"anything else", agentproto.CodeInternal, "execute E): connection refused", errors.New("connection refused")},
	}
	for _, c := range cases {
		got := executeFailure("R", "E", 3146633, c.err)
		if got.Code != c.code || !strings.Contains(got.Message, c.says) {
			t.Errorf("%s: %s %q, want code %s saying %q", c.name, got.Code, got.Message, c.code, c.says)
		}
	}
}
