package fakemodel

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// chatRequest is the part of a Chat Completions request body the fake
// reads; everything else (max_tokens, tool_choice, temperature…) stays in
// the log's Body.
type chatRequest struct {
	Model         string `json:"model"`
	Stream        bool   `json:"stream"`
	StreamOptions struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	Messages []chatMessage `json:"messages"`
	Tools    []struct {
		Type     string `json:"type"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
	// ResponseFormat with type json_schema asks for structured output
	// in the message's content.
	ResponseFormat *struct {
		Type       string `json:"type"`
		JSONSchema struct {
			Schema json.RawMessage `json:"schema"`
		} `json:"json_schema"`
	} `json:"response_format"`
	// Logprobs asks for the content tokens' log-probabilities.
	Logprobs bool `json:"logprobs"`
}

// schemaContent reports whether the request asks for structured output
// in the content (response_format json_schema) rather than through a
// StructuredOutput tool, as OpenCode asks for it.
func (req chatRequest) schemaContent() bool {
	if req.ResponseFormat == nil || req.ResponseFormat.Type != "json_schema" {
		return false
	}
	for _, t := range req.Tools {
		if t.Function.Name == "StructuredOutput" {
			return false
		}
	}
	return true
}

// chatMessage is one conversation entry: system, user, assistant (with
// tool_calls) or tool (a tool call's result).
type chatMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
}

// parseChat decodes a Chat Completions body into Facts: System holds the
// text of every system (or developer) message in order, Prompt the newest
// user text, ToolResults the tool messages that end the conversation (the
// answers to the model's latest tool calls).
func parseChat(body []byte) (chatRequest, Facts, error) {
	var req chatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return req, Facts{}, fmt.Errorf("request body is not a Chat Completions request: %w", err)
	}
	f := Facts{Model: req.Model, Stream: req.Stream, System: []string{}, SystemMessages: []string{},
		Tools: []string{}, ToolResults: []ToolResult{}, Messages: len(req.Messages)}
	for _, t := range req.Tools {
		f.Tools = append(f.Tools, t.Function.Name)
	}
	if req.ResponseFormat != nil && req.ResponseFormat.Type == "json_schema" {
		f.Schema = req.ResponseFormat.JSONSchema.Schema
	}
	if req.Model == "" {
		return req, f, errors.New("model: field required")
	}
	if len(req.Messages) == 0 {
		return req, f, errors.New("messages: at least one message is required")
	}
	for i, m := range req.Messages {
		text, err := chatContent(m.Content)
		if err != nil {
			return req, f, fmt.Errorf("messages.%d.content: %w", i, err)
		}
		switch m.Role {
		case "system", "developer":
			f.System = append(f.System, text)
		case "user":
			if prompt := userText(m.Content, text); strings.TrimSpace(prompt) != "" {
				f.Prompt = prompt
			}
		}
	}
	for i := len(req.Messages) - 1; i >= 0 && req.Messages[i].Role == "tool"; i-- {
		text, _ := chatContent(req.Messages[i].Content)
		f.ToolResults = append([]ToolResult{{ToolUseID: req.Messages[i].ToolCallID, Content: text}}, f.ToolResults...)
	}
	return req, f, nil
}

// userText is a user message's text without its <system-reminder> parts
// (Qwen Code sends its context so, in the parts before the prompt); text
// is the whole message's, which a string content is.
func userText(raw json.RawMessage, text string) string {
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return text
	}
	var texts []string
	for _, p := range parts {
		if p.Type == "text" && !strings.HasPrefix(strings.TrimSpace(p.Text), "<system-reminder>") {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// chatContent is a message's text: a string, or its text parts joined
// with newlines (image parts carry none).
func chatContent(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", errors.New("must be a string or a list of content parts")
	}
	var texts []string
	for _, p := range parts {
		if p.Type == "text" {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n"), nil
}
