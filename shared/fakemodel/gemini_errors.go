package fakemodel

import (
	"errors"
	"fmt"
)

// geminiError is an error of the Gemini API: the HTTP status, its google.rpc
// status name and the message, answered as {"error": {code, message, status}}.
type geminiError struct {
	Status  int
	State   string
	Message string
}

// resolveGeminiError applies the Kind defaults of the Gemini API; explicit
// Status and Message override them (Type, when set, is the status name).
func resolveGeminiError(e ErrorReply, model string) (geminiError, error) {
	var d geminiError
	switch e.Kind {
	case "":
		if e.Status == 0 || e.Type == "" {
			return d, errors.New("without kind, status and type are required")
		}
	case "not_found":
		d = geminiError{404, "NOT_FOUND", fmt.Sprintf("models/%s is not found for API version v1beta, or is not supported for generateContent.", model)}
	case "overloaded":
		d = geminiError{503, "UNAVAILABLE", "The model is overloaded. Please try again later."}
	case "rate_limit":
		d = geminiError{429, "RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota)."}
	case "authentication":
		d = geminiError{400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key."}
	case "invalid_request":
		d = geminiError{400, "INVALID_ARGUMENT", "invalid request"}
	case "api_error":
		d = geminiError{500, "INTERNAL", "An internal error has occurred."}
	default:
		return d, fmt.Errorf("kind: unknown %q", e.Kind)
	}
	if e.Status != 0 {
		d.Status = e.Status
	}
	if e.Type != "" {
		d.State = e.Type
	}
	if e.Message != "" {
		d.Message = e.Message
	}
	return d, nil
}
