package fakemodel

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"
)

// Script is what the fake answers, turn by turn.
type Script struct {
	// Turns answer model requests in order; each is used once unless it
	// sets Times or Repeat.
	Turns []Turn `json:"turns"`
	// Fallback, when set, answers requests that no turn matches (its Match
	// is ignored). Without it such a request gets an HTTP 400 error, so a
	// script that runs out fails loudly.
	Fallback *Turn `json:"fallback,omitempty"`
	// CountTokens is the input_tokens answer of count_tokens requests
	// (default 100).
	CountTokens int `json:"countTokens,omitempty"`
	// Ollama, when set, makes the fake an Ollama server (see Ollama).
	Ollama *Ollama `json:"ollama,omitempty"`
	// Models, when set, is the hosted model list the fake serves at
	// GET /v1/models (and /models) and GET /v1/models/{id}, in the shapes
	// OpenAI-compatible and Anthropic clients read.
	Models []string `json:"models,omitempty"`
}

// Turn is the answer to one model request.
type Turn struct {
	Match Match `json:"match,omitzero"`
	// Times is how many requests this turn answers (default 1).
	Times int `json:"times,omitempty"`
	// Repeat makes the turn answer every matching request.
	Repeat bool `json:"repeat,omitempty"`
	// Delay is waited before the response starts (time to first byte).
	Delay Duration `json:"delay,omitzero"`
	// ChunkDelay is waited between streamed deltas.
	ChunkDelay Duration `json:"chunkDelay,omitzero"`
	// Reply is the assistant message, one content block per entry.
	Reply []Block `json:"reply,omitempty"`
	// StopReason defaults to "tool_use" when Reply calls a tool, else
	// "end_turn".
	StopReason string `json:"stopReason,omitempty"`
	Usage      Usage  `json:"usage,omitzero"`
	// TokenLogprobs are the log-probabilities the Chat Completions API
	// reports for the reply's tokens when a request asks for logprobs:
	// a token (a run of letters and digits, or one other character of the
	// content) listed here has its value, every other token 0.
	TokenLogprobs map[string]float64 `json:"tokenLogprobs,omitempty"`
	// Error answers with an API error instead of a reply.
	Error *ErrorReply `json:"error,omitempty"`
}

// Match restricts a turn to some requests. Empty fields match anything.
type Match struct {
	// API is "anthropic", "responses" (the OpenAI Responses API), "chat"
	// (the OpenAI Chat Completions API), "gemini" (the Gemini API) or
	// "ollama-chat" (Ollama's /api/chat, served with an Ollama inventory).
	API string `json:"api,omitempty"`
	// Model must equal the request's model.
	Model string `json:"model,omitempty"`
	// Marker must occur in the request's prompt: the newest user text,
	// see Facts.Prompt.
	Marker string `json:"marker,omitempty"`
}

// Block is one content block of a reply; exactly one field is set.
type Block struct {
	Text     *string `json:"text,omitempty"`
	Thinking *string `json:"thinking,omitempty"`
	// Signature of a thinking block (default "fakesig").
	Signature string   `json:"signature,omitempty"`
	ToolUse   *ToolUse `json:"toolUse,omitempty"`
	// StructuredOutput is Claude Code's structured-output tool call: a
	// tool_use named StructuredOutput whose input is this JSON object.
	StructuredOutput json.RawMessage `json:"structuredOutput,omitempty"`
	// CustomToolCall is a Responses API custom tool call (free-form text
	// input, e.g. Codex's apply_patch). The Anthropic API renders it as a
	// tool_use whose input is {"input": <text>}.
	CustomToolCall *CustomToolCall `json:"customToolCall,omitempty"`
}

// CustomToolCall is a call of a free-form (custom) tool.
type CustomToolCall struct {
	// ID defaults to call_fake_<request>_<block index>.
	ID    string `json:"id,omitempty"`
	Name  string `json:"name"`
	Input string `json:"input"`
}

// ToolUse is a tool call the model makes.
type ToolUse struct {
	// ID defaults to toolu_fake_<request>_<block index> (Anthropic) or
	// call_fake_<request>_<block index> (Responses).
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input,omitempty"` // a JSON object; default {}
	// Namespace is the Responses API's tool namespace of the call (Codex
	// offers each MCP server's tools as namespace "mcp__<server>" and only
	// dispatches calls that name it). The Anthropic API ignores it.
	Namespace string `json:"namespace,omitempty"`
}

// Usage is the token usage reported for a reply (defaults: 100 input, 10
// output). The Responses API reports CacheReadInputTokens as cached input
// tokens and has no cache-creation count.
type Usage struct {
	InputTokens              int `json:"inputTokens,omitempty"`
	OutputTokens             int `json:"outputTokens,omitempty"`
	CacheCreationInputTokens int `json:"cacheCreationInputTokens,omitempty"`
	CacheReadInputTokens     int `json:"cacheReadInputTokens,omitempty"`
	// ReasoningTokens are the output tokens spent reasoning (Responses API).
	ReasoningTokens int `json:"reasoningTokens,omitempty"`
}

// ErrorReply is an API error. Kind fills in the status, type and message
// the real API uses; explicit fields override it.
type ErrorReply struct {
	// Kind is one of: not_found (404 not_found_error, "model: <model>"),
	// overloaded (529 overloaded_error), rate_limit (429 rate_limit_error,
	// retry-after 1), authentication (401 authentication_error),
	// invalid_request (400 invalid_request_error), api_error (500).
	Kind    string `json:"kind,omitempty"`
	Status  int    `json:"status,omitempty"`
	Type    string `json:"type,omitempty"`
	Message string `json:"message,omitempty"`
	// Code is the Responses API's error code (e.g. model_not_found);
	// Kind fills it in. The Anthropic API has none and ignores it.
	Code string `json:"code,omitempty"`
	// RetryAfter is the retry-after header in seconds.
	RetryAfter int `json:"retryAfter,omitempty"`
	// Headers are extra response headers (e.g. x-should-retry).
	Headers map[string]string `json:"headers,omitempty"`
	// MidStream sends the error inside the stream (streaming requests
	// only; HTTP status stays 200): an error event after message_start
	// (Anthropic), response.failed after response.created (Responses).
	MidStream bool `json:"midStream,omitempty"`
}

// Duration is a time.Duration written as a Go duration string ("250ms").
type Duration struct{ time.Duration }

// UnmarshalJSON reads a duration string.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("duration must be a string like \"250ms\": %s", b)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	if v < 0 {
		return fmt.Errorf("duration %q is negative", s)
	}
	d.Duration = v
	return nil
}

// MarshalJSON writes the duration string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

// IsZero reports a zero duration (for omitzero).
func (d Duration) IsZero() bool { return d.Duration == 0 }

// LoadScript reads and validates a JSON script file.
func LoadScript(path string) (Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Script{}, fmt.Errorf("read script: %w", err)
	}
	s, err := ParseScript(data)
	if err != nil {
		return Script{}, fmt.Errorf("script %s: %w", path, err)
	}
	return s, nil
}

// ParseScript decodes and validates a JSON script. Unknown fields are
// errors, so a misspelt key cannot silently change a test.
func ParseScript(data []byte) (Script, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s Script
	if err := dec.Decode(&s); err != nil {
		return Script{}, err
	}
	if dec.More() {
		return Script{}, errors.New("trailing data after the script object")
	}
	return s, s.Validate()
}

// Validate reports the first invalid turn, naming it.
func (s Script) Validate() error {
	if s.CountTokens < 0 {
		return fmt.Errorf("countTokens: %d is negative", s.CountTokens)
	}
	for i, t := range s.Turns {
		if err := t.validate(); err != nil {
			return fmt.Errorf("turns[%d]: %w", i, err)
		}
	}
	if s.Fallback != nil {
		if err := s.Fallback.validate(); err != nil {
			return fmt.Errorf("fallback: %w", err)
		}
	}
	if s.Ollama != nil {
		if err := s.Ollama.validate(); err != nil {
			return fmt.Errorf("ollama: %w", err)
		}
	}
	return nil
}

func (t Turn) validate() error {
	if t.Times < 0 {
		return fmt.Errorf("times: %d is negative", t.Times)
	}
	if t.Times > 0 && t.Repeat {
		return errors.New("times and repeat are exclusive")
	}
	switch t.Match.API {
	case "", APIAnthropic, APIResponses, APIChat, APIOllamaChat, APIGemini:
	default:
		return fmt.Errorf("match.api: unknown API %q (known: %s, %s, %s, %s, %s)", t.Match.API, APIAnthropic, APIResponses, APIChat, APIOllamaChat, APIGemini)
	}
	if (len(t.Reply) == 0) == (t.Error == nil) {
		return errors.New("needs exactly one of reply and error")
	}
	for i, b := range t.Reply {
		if err := b.validate(); err != nil {
			return fmt.Errorf("reply[%d]: %w", i, err)
		}
	}
	if t.Error != nil {
		if _, err := t.Error.resolve(""); err != nil {
			return fmt.Errorf("error: %w", err)
		}
	}
	for tok, lp := range t.TokenLogprobs {
		if !(lp <= 0) {
			return fmt.Errorf("tokenLogprobs[%q]: %v is not a log-probability (a number ≤ 0)", tok, lp)
		}
	}
	return nil
}

func (b Block) validate() error {
	n := 0
	for _, set := range []bool{b.Text != nil, b.Thinking != nil, b.ToolUse != nil, b.StructuredOutput != nil, b.CustomToolCall != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return errors.New("needs exactly one of text, thinking, toolUse, structuredOutput, customToolCall")
	}
	if b.Signature != "" && b.Thinking == nil {
		return errors.New("signature belongs to a thinking block")
	}
	switch {
	case b.ToolUse != nil:
		if b.ToolUse.Name == "" {
			return errors.New("toolUse.name is empty")
		}
		if b.ToolUse.Input != nil && !isJSONObject(b.ToolUse.Input) {
			return fmt.Errorf("toolUse.input must be a JSON object, got %s", b.ToolUse.Input)
		}
	case b.CustomToolCall != nil:
		if b.CustomToolCall.Name == "" {
			return errors.New("customToolCall.name is empty")
		}
	case b.StructuredOutput != nil:
		if !isJSONObject(b.StructuredOutput) {
			return fmt.Errorf("structuredOutput must be a JSON object, got %s", b.StructuredOutput)
		}
	}
	return nil
}

func isJSONObject(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && m != nil
}

// resolvedError is an ErrorReply with its defaults applied.
type resolvedError struct {
	Status     int
	Type       string
	Message    string
	RetryAfter int
	Headers    map[string]string
	MidStream  bool
}

// resolve applies the Kind defaults; model fills the not_found message.
func (e ErrorReply) resolve(model string) (resolvedError, error) {
	r := resolvedError{Status: e.Status, Type: e.Type, Message: e.Message, RetryAfter: e.RetryAfter,
		Headers: e.Headers, MidStream: e.MidStream}
	var d resolvedError
	switch e.Kind {
	case "":
		if e.Status == 0 || e.Type == "" {
			return r, errors.New("without kind, status and type are required")
		}
	case "not_found":
		d = resolvedError{Status: 404, Type: "not_found_error", Message: "model: " + model}
	case "overloaded":
		d = resolvedError{Status: 529, Type: "overloaded_error", Message: "Overloaded"}
	case "rate_limit":
		d = resolvedError{Status: 429, Type: "rate_limit_error", Message: "Number of request tokens has exceeded your per-minute rate limit", RetryAfter: 1}
	case "authentication":
		d = resolvedError{Status: 401, Type: "authentication_error", Message: "invalid x-api-key"}
	case "invalid_request":
		d = resolvedError{Status: 400, Type: "invalid_request_error", Message: "invalid request"}
	case "api_error":
		d = resolvedError{Status: 500, Type: "api_error", Message: "Internal server error"}
	default:
		return r, fmt.Errorf("kind: unknown %q (known: not_found, overloaded, rate_limit, authentication, invalid_request, api_error)", e.Kind)
	}
	if r.Status == 0 {
		r.Status = d.Status
	}
	if r.Type == "" {
		r.Type = d.Type
	}
	if r.Message == "" {
		r.Message = d.Message
	}
	if r.RetryAfter == 0 {
		r.RetryAfter = d.RetryAfter
	}
	if r.Status < 400 || r.Status > 599 {
		return r, fmt.Errorf("status %d is not an HTTP error status", r.Status)
	}
	if r.RetryAfter < 0 {
		return r, fmt.Errorf("retryAfter: %d is negative", r.RetryAfter)
	}
	return r, nil
}
