package decision

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/ollama"
)

// api is one hosted endpoint as a backend posts to it; name and the
// endpoint open its errors ("OpenAI-compatible endpoint at https://…").
type api struct {
	http     *http.Client
	name     string
	endpoint ollama.Host
	// header sets the request's credentials and version headers; values
	// are never logged or shown.
	header func(http.Header)
}

// post sends body as JSON to path and returns the reply's status and
// body, read up to maxReply. A failure to reach the endpoint is a
// decision_endpoint error; a cancelled ctx ends it with ctx's cause.
func (a api) post(ctx context.Context, path string, body any) (int, []byte, error) {
	data, err := json.Marshal(body)
	if err != nil {
		return 0, nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.endpoint.URL(path), bytes.NewReader(data))
	if err != nil {
		return 0, nil, a.errorf(agentproto.CodeDecisionEndpoint, "cannot make the request: %v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if a.header != nil {
		a.header(req.Header)
	}
	resp, err := a.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return 0, nil, context.Cause(ctx)
		}
		return 0, nil, a.errorf(agentproto.CodeDecisionEndpoint, "not reachable (POST %s: %v)", path, urlCause(err)).Wrap(err)
	}
	defer resp.Body.Close()
	reply, err := io.ReadAll(io.LimitReader(resp.Body, maxReply+1))
	if err != nil {
		if ctx.Err() != nil {
			return 0, nil, context.Cause(ctx)
		}
		return 0, nil, a.errorf(agentproto.CodeDecisionEndpoint, "reading the answer to POST %s: %v", path, err).Wrap(err)
	}
	if len(reply) > maxReply {
		return 0, nil, a.errorf(agentproto.CodeDecisionEndpoint, "the answer to POST %s is larger than %d bytes", path, maxReply)
	}
	return resp.StatusCode, reply, nil
}

func (a api) errorf(code, format string, args ...any) *agentproto.Error {
	return agentproto.Errorf(code, "%s at %s: %s", a.name, a.endpoint, fmt.Sprintf(format, args...))
}

// statusError is a hosted API's HTTP error as a decision error: a model
// the endpoint does not know (404) is decision_model_unavailable, a
// refused key (401, 403) names the key's variable, every other one is
// decision_endpoint.
func (a api) statusError(request string, status int, message, keyVar string) error {
	switch status {
	case http.StatusNotFound:
		return a.errorf(agentproto.CodeDecisionModelUnavailable, "%s answered HTTP 404: %s", request, message)
	case http.StatusUnauthorized, http.StatusForbidden:
		return a.errorf(agentproto.CodeDecisionEndpoint, "%s answered HTTP %d: %s (the key is read from %s)", request, status, message, keyVar)
	}
	return a.errorf(agentproto.CodeDecisionEndpoint, "%s answered HTTP %d: %s", request, status, message)
}
