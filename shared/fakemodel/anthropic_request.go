package fakemodel

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// anthropicRequest is the part of a Messages API request body the fake
// reads. Everything else (max_tokens, thinking, metadata, cache_control…)
// is accepted as sent and kept in the log's Body.
type anthropicRequest struct {
	Model    string             `json:"model"`
	Stream   bool               `json:"stream"`
	System   json.RawMessage    `json:"system"`
	Messages []anthropicMessage `json:"messages"`
	Tools    []struct {
		Name        string          `json:"name"`
		InputSchema json.RawMessage `json:"input_schema"`
	} `json:"tools"`
	// ToolChoice {"type": "tool", "name": …} forces that tool's use: the
	// way to ask the Messages API for structured output.
	ToolChoice *struct {
		Type string `json:"type"`
		Name string `json:"name"`
	} `json:"tool_choice"`
}

// forcedTool is the name of the tool the request forces, "" for none.
func (req anthropicRequest) forcedTool() string {
	if req.ToolChoice == nil || req.ToolChoice.Type != "tool" {
		return ""
	}
	return req.ToolChoice.Name
}

type anthropicMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type anthropicBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ToolUseID string          `json:"tool_use_id"`
	IsError   bool            `json:"is_error"`
	Content   json.RawMessage `json:"content"`
}

// parseAnthropic decodes a Messages API body into Facts. It checks what the
// real API would reject outright, and accepts role "system" entries inside
// messages, which Claude Code sends.
func parseAnthropic(body []byte) (anthropicRequest, Facts, error) {
	var req anthropicRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return req, Facts{}, fmt.Errorf("request body is not a Messages API request: %w", err)
	}
	f, err := anthropicFacts(req)
	return req, f, err
}

// anthropicFacts is what the matching and the log take from a request;
// Schema is the input schema of the tool it forces.
func anthropicFacts(req anthropicRequest) (Facts, error) {
	f := Facts{Model: req.Model, Stream: req.Stream, Messages: len(req.Messages),
		System: []string{}, SystemMessages: []string{}, Tools: []string{}, ToolResults: []ToolResult{}}
	if req.Model == "" {
		return f, errors.New("model: field required")
	}
	if len(req.Messages) == 0 {
		return f, errors.New("messages: at least one message is required")
	}
	sys, err := parseContent(req.System)
	if err != nil {
		return f, fmt.Errorf("system: %w", err)
	}
	f.System = texts(sys)
	for _, t := range req.Tools {
		f.Tools = append(f.Tools, t.Name)
		if forced := req.forcedTool(); forced != "" && t.Name == forced {
			f.Schema = t.InputSchema
		}
	}
	msgs := make([][]anthropicBlock, len(req.Messages))
	for i, m := range req.Messages {
		if m.Role != "user" && m.Role != "assistant" && m.Role != "system" {
			return f, fmt.Errorf("messages.%d.role: unexpected value %q", i, m.Role)
		}
		if msgs[i], err = parseContent(m.Content); err != nil {
			return f, fmt.Errorf("messages.%d.content: %w", i, err)
		}
		if m.Role == "system" {
			f.SystemMessages = append(f.SystemMessages, strings.Join(texts(msgs[i]), "\n"))
		}
	}
	f.Prompt = newestPrompt(req.Messages, msgs)
	if last := len(req.Messages) - 1; req.Messages[last].Role == "user" {
		if f.ToolResults, err = toolResults(msgs[last]); err != nil {
			return f, fmt.Errorf("messages.%d: %w", last, err)
		}
	}
	return f, nil
}

// parseContent reads a content field: a string or an array of blocks.
func parseContent(raw json.RawMessage) ([]anthropicBlock, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []anthropicBlock{{Type: "text", Text: s}}, nil
	}
	var blocks []anthropicBlock
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return nil, errors.New("must be a string or an array of content blocks")
	}
	return blocks, nil
}

func texts(blocks []anthropicBlock) []string {
	out := []string{}
	for _, b := range blocks {
		if b.Type == "text" {
			out = append(out, b.Text)
		}
	}
	return out
}

// newestPrompt is Facts.Prompt: the last non-reminder text block of the
// newest user message that has one.
func newestPrompt(msgs []anthropicMessage, blocks [][]anthropicBlock) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != "user" {
			continue
		}
		for j := len(blocks[i]) - 1; j >= 0; j-- {
			b := blocks[i][j]
			if b.Type == "text" && !strings.HasPrefix(strings.TrimSpace(b.Text), "<system-reminder>") {
				return b.Text
			}
		}
	}
	return ""
}

func toolResults(blocks []anthropicBlock) ([]ToolResult, error) {
	out := []ToolResult{}
	for _, b := range blocks {
		if b.Type != "tool_result" {
			continue
		}
		content, err := parseContent(b.Content)
		if err != nil {
			return nil, fmt.Errorf("tool_result %s content: %w", b.ToolUseID, err)
		}
		out = append(out, ToolResult{ToolUseID: b.ToolUseID, IsError: b.IsError,
			Content: strings.Join(texts(content), "\n")})
	}
	return out, nil
}

// jsonOrNil keeps a body for the log when it is JSON (the log is JSON).
func jsonOrNil(body []byte) json.RawMessage {
	if len(body) == 0 || !json.Valid(body) {
		return nil
	}
	return json.RawMessage(body)
}
