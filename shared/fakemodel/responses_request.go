package fakemodel

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// responsesRequest is the part of a Responses API request body the fake
// reads; everything else (reasoning, include, prompt_cache_key, text…) is
// kept in the log's Body.
type responsesRequest struct {
	Model        string          `json:"model"`
	Stream       bool            `json:"stream"`
	Instructions string          `json:"instructions"`
	Input        json.RawMessage `json:"input"`
	Tools        []responsesTool `json:"tools"`
}

// responsesTool is one offered tool. Namespace tools (how Codex offers an
// MCP server's tools) nest their functions.
type responsesTool struct {
	Type  string          `json:"type"`
	Name  string          `json:"name"`
	Tools []responsesTool `json:"tools"`
}

// responsesItem is one input item: a message, a tool call the model made
// earlier, or a tool call's output.
type responsesItem struct {
	Type    string          `json:"type"`
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	CallID  string          `json:"call_id"`
	Output  json.RawMessage `json:"output"`
}

type responsesPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// parseResponses decodes a Responses API body into Facts. System holds
// the instructions field and the text of every developer or system
// message, in order (Codex sends its prompts as developer messages);
// Tools lists function names, a namespace's functions as
// "<namespace>/<function>", and other tool types by their type.
func parseResponses(body []byte) (Facts, error) {
	var req responsesRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return Facts{}, fmt.Errorf("request body is not a Responses API request: %w", err)
	}
	f := Facts{Model: req.Model, Stream: req.Stream, System: []string{}, SystemMessages: []string{},
		Tools: toolNames(req.Tools), ToolResults: []ToolResult{}}
	if req.Model == "" {
		return f, errors.New("model: field required")
	}
	items, err := inputItems(req.Input)
	if err != nil {
		return f, fmt.Errorf("input: %w", err)
	}
	if req.Instructions != "" {
		f.System = append(f.System, req.Instructions)
	}
	f.Messages = len(items)
	for i, it := range items {
		if it.Type != "message" && it.Type != "" {
			continue
		}
		parts, err := messageParts(it.Content)
		if err != nil {
			return f, fmt.Errorf("input.%d.content: %w", i, err)
		}
		switch it.Role {
		case "developer", "system":
			f.System = append(f.System, strings.Join(partTexts(parts), "\n"))
		case "user":
			if p := promptText(parts); p != "" {
				f.Prompt = p
			}
		}
	}
	f.ToolResults = trailingOutputs(items)
	return f, nil
}

// inputItems reads input: a string (one user message) or a list of items.
func inputItems(raw json.RawMessage) ([]responsesItem, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, errors.New("field required")
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		content, _ := json.Marshal(s)
		return []responsesItem{{Type: "message", Role: "user", Content: content}}, nil
	}
	var items []responsesItem
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, errors.New("must be a string or a list of input items")
	}
	return items, nil
}

func messageParts(raw json.RawMessage) ([]responsesPart, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []responsesPart{{Type: "input_text", Text: s}}, nil
	}
	var parts []responsesPart
	if err := json.Unmarshal(raw, &parts); err != nil {
		return nil, errors.New("must be a string or a list of content parts")
	}
	return parts, nil
}

func partTexts(parts []responsesPart) []string {
	out := []string{}
	for _, p := range parts {
		if p.Text != "" || p.Type == "input_text" || p.Type == "output_text" {
			out = append(out, p.Text)
		}
	}
	return out
}

// harnessContextPrefixes mark user-role text a harness injects as context
// rather than a prompt (Codex: the environment context, AGENTS.md files,
// the note after an interrupted turn); they never count as Facts.Prompt.
var harnessContextPrefixes = []string{"<environment_context>", "<user_instructions>", "<turn_aborted>", "# AGENTS.md instructions"}

// promptText is the last text part of a user message that is not
// harness-injected context.
func promptText(parts []responsesPart) string {
	for i := len(parts) - 1; i >= 0; i-- {
		t := strings.TrimSpace(parts[i].Text)
		if t == "" || hasAnyPrefix(t, harnessContextPrefixes) {
			continue
		}
		return parts[i].Text
	}
	return ""
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// trailingOutputs are the tool outputs at the end of the input: the
// answers to the model's latest tool calls.
func trailingOutputs(items []responsesItem) []ToolResult {
	out := []ToolResult{}
	for i := len(items) - 1; i >= 0; i-- {
		it := items[i]
		if !strings.HasSuffix(it.Type, "_output") {
			break
		}
		out = append([]ToolResult{{ToolUseID: it.CallID, Content: outputText(it.Output)}}, out...)
	}
	return out
}

// outputText is a tool output's text: a string, or content parts joined
// with newlines.
func outputText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []responsesPart
	if json.Unmarshal(raw, &parts) != nil {
		return string(raw)
	}
	return strings.Join(partTexts(parts), "\n")
}

func toolNames(tools []responsesTool) []string {
	out := []string{}
	for _, t := range tools {
		switch {
		case t.Type == "namespace":
			for _, sub := range t.Tools {
				out = append(out, t.Name+"/"+sub.Name)
			}
		case t.Name != "":
			out = append(out, t.Name)
		default:
			out = append(out, t.Type)
		}
	}
	return out
}
