package fakemodel

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
)

// openAIError is an ErrorReply in the OpenAI API's shape.
type openAIError struct {
	Status     int
	Type       string
	Code       string
	Message    string
	RetryAfter int
	Headers    map[string]string
}

func (e openAIError) body() map[string]any {
	var code any
	if e.Code != "" {
		code = e.Code
	}
	return map[string]any{"message": e.Message, "type": e.Type, "param": nil, "code": code}
}

// resolveOpenAIError applies the Kind defaults of the OpenAI API (the
// model_not_found code is what Codex classifies as modelNotFound);
// explicit fields override them. model fills the not_found message.
func resolveOpenAIError(e ErrorReply, model string) (openAIError, error) {
	r := openAIError{Status: e.Status, Type: e.Type, Code: e.Code, Message: e.Message, RetryAfter: e.RetryAfter, Headers: e.Headers}
	var d openAIError
	switch e.Kind {
	case "":
		if e.Status == 0 || e.Type == "" {
			return r, errors.New("without kind, status and type are required")
		}
	case "not_found":
		d = openAIError{Status: 404, Type: "invalid_request_error", Code: "model_not_found",
			Message: fmt.Sprintf("The model `%s` does not exist or you do not have access to it.", model)}
	case "overloaded":
		d = openAIError{Status: 503, Type: "server_error", Code: "server_is_overloaded", Message: "The server is overloaded."}
	case "rate_limit":
		d = openAIError{Status: 429, Type: "requests", Code: "rate_limit_exceeded", Message: "Rate limit reached.", RetryAfter: 1}
	case "authentication":
		d = openAIError{Status: 401, Type: "invalid_request_error", Code: "invalid_api_key", Message: "Incorrect API key provided."}
	case "invalid_request":
		d = openAIError{Status: 400, Type: "invalid_request_error", Message: "invalid request"}
	case "api_error":
		d = openAIError{Status: 500, Type: "server_error", Message: "The server had an error while processing your request."}
	default:
		return r, fmt.Errorf("kind: unknown %q", e.Kind)
	}
	if r.Status == 0 {
		r.Status = d.Status
	}
	if r.Type == "" {
		r.Type = d.Type
	}
	if r.Code == "" {
		r.Code = d.Code
	}
	if r.Message == "" {
		r.Message = d.Message
	}
	if r.RetryAfter == 0 {
		r.RetryAfter = d.RetryAfter
	}
	return r, nil
}

// failOpenAI writes e as OpenAI's error response (its headers, Retry-After,
// the {"error": …} body), as the Responses and Chat Completions APIs do.
func (f *Fake) failOpenAI(w http.ResponseWriter, seq int, e openAIError, outcome string) {
	for k, v := range e.Headers {
		w.Header().Set(k, v)
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	writeJSON(w, seq, e.Status, map[string]any{"error": e.body()})
	f.log.finish(seq, e.Status, outcome)
}
