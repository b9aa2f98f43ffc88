package ollama

import "strings"

// Error codes, stable for JSON.
const (
	// CodeHostInvalid: OLLAMA_HOST is not a plain HTTP(S) origin.
	CodeHostInvalid = "ollama_host_invalid"
	// CodeUnreachable: the server did not answer (down, wrong port).
	CodeUnreachable = "ollama_unreachable"
	// CodeInventory: the server answered an inventory request with an
	// error or with something that is not Ollama's format.
	CodeInventory = "ollama_inventory"
	// CodeInvalidName: a model name is not <name>[:<tag>].
	CodeInvalidName = "ollama_invalid_name"
	// CodeModelMissing: a model is not installed on the server.
	CodeModelMissing = "ollama_model_missing"
	// CodeModelIneligible: a model is installed but cannot serve an agent
	// (a remote/cloud entry, or without the completion or tools capability).
	CodeModelIneligible = "ollama_model_ineligible"
)

// Error is a failure that names the server it concerns.
type Error struct {
	Code string
	// Host is the server's origin (the raw value for CodeHostInvalid).
	Host string
	// Models are the models concerned (missing or ineligible ones).
	Models []string
	msg    string
	err    error
}

func (e *Error) Error() string {
	switch {
	case e.Code == CodeHostInvalid:
		return "Ollama host " + e.msg
	case e.Host == "":
		return "Ollama: " + e.msg
	}
	return "Ollama at " + e.Host + ": " + e.msg
}

func (e *Error) Unwrap() error { return e.err }

// Details are the error's facts for a JSON error document.
func (e *Error) Details() map[string]any {
	d := map[string]any{"host": e.Host, "ollamaCode": e.Code}
	if len(e.Models) > 0 {
		d["models"] = e.Models
	}
	return d
}

func joinNames(names []string) string { return strings.Join(names, ", ") }
