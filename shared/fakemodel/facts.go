package fakemodel

import "encoding/json"

// The APIs a Fake speaks, as named in Match.API and Entry.API.
const (
	APIAnthropic = "anthropic"
	// APIResponses is the OpenAI Responses API (POST /v1/responses).
	APIResponses = "responses"
)

// Facts is the API-independent view of a model request: what the turn
// matching needs and what tests assert on.
type Facts struct {
	Model  string `json:"model"`
	Stream bool   `json:"stream"`
	// System holds the system prompt's text blocks, in order.
	System []string `json:"system"`
	// SystemMessages holds the text of role "system" entries inside the
	// conversation (Claude Code injects its environment block that way).
	SystemMessages []string `json:"systemMessages"`
	// Tools are the names of the tools offered, in request order.
	Tools []string `json:"tools"`
	// Prompt is the newest user text: the last text block (ignoring
	// <system-reminder> blocks) of the newest user message that has one.
	// A failed prompt stays in the history and is merged with the next one,
	// so only the newest block counts. Markers are looked up here.
	Prompt string `json:"prompt"`
	// ToolResults are the tool results in the last user message.
	ToolResults []ToolResult `json:"toolResults"`
	// Messages is the number of conversation entries.
	Messages int `json:"messages"`
	// Schema is the structured output the request asks for: Ollama's
	// format (a JSON Schema, or "json"), Chat Completions'
	// response_format json_schema's schema, or the input schema of the
	// tool an Anthropic request forces with tool_choice; absent when it
	// asks for none.
	Schema json.RawMessage `json:"schema,omitempty"`
}

// ToolResult is what a tool returned to the model.
type ToolResult struct {
	ToolUseID string `json:"toolUseId"`
	IsError   bool   `json:"isError"`
	// Content is the result's text (text blocks joined with newlines).
	Content string `json:"content"`
}
