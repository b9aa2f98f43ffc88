package proxy

import (
	"errors"
	"fmt"
	"strings"

	"go.temporal.io/api/serviceerror"

	"github.com/stratoscli/stratos/shared/agentproto"
)

// The Temporal server refuses a payload over its blob size limit
// (limit.blobSize.error, 2 MiB unless its operator set another): at the
// start of an execute's workflow when the request (the prompt and its
// template variables) is over it, or when the agent's activity completes
// with an answer over it. Its words are the only sign of either, so they
// are matched here, in one place.
const (
	serverRefusedRequest = "size exceeds limit" // "Blob data size exceeds limit."
	serverRefusedResult  = "result exceeds size limit"
)

// executeFailure is the agent error of an execute whose workflow failed:
// a payload the server refused says which and what to do instead; any
// other failure is internal.
func executeFailure(runID, id string, requestBytes int, err error) *agentproto.Error {
	var invalid *serviceerror.InvalidArgument
	switch {
	case errors.As(err, &invalid) && strings.Contains(invalid.Message, serverRefusedRequest):
		return agentproto.Errorf(agentproto.CodeProtocol,
			"agent execute on Temporal (run %s): the Temporal server refused the execute's request, %d bytes, as over its payload limit (2 MiB unless its limit.blobSize.error says otherwise); send less, such as a large text in a file of the repository that the agent reads",
			runID, requestBytes).WithDetails(map[string]any{"bytes": requestBytes})
	case strings.Contains(err.Error(), serverRefusedResult):
		return agentproto.Errorf(agentproto.CodeExecution,
			"agent execute on Temporal (run %s, execute %s): the agent ran, but the Temporal server refused its answer as over its payload limit (2 MiB unless its limit.blobSize.error says otherwise); ask for a shorter answer, or have the agent write it to a file",
			runID, id)
	}
	return &agentproto.Error{Code: agentproto.CodeInternal, Message: fmt.Sprintf("agent execute on Temporal (run %s, execute %s): %v", runID, id, err)}
}
