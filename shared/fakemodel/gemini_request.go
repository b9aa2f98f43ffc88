package fakemodel

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// geminiRequest is the part of a generateContent body the fake reads;
// everything else (generationConfig, safety settings…) stays in the log's
// Body.
type geminiRequest struct {
	Contents          []geminiContent `json:"contents"`
	SystemInstruction *geminiContent  `json:"systemInstruction"`
	Tools             []struct {
		FunctionDeclarations []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
	GenerationConfig struct {
		ResponseJSONSchema json.RawMessage `json:"responseJsonSchema"`
		ResponseSchema     json.RawMessage `json:"responseSchema"`
	} `json:"generationConfig"`
}

// geminiContent is one conversation entry: role "user" (prompts and
// function responses) or "model".
type geminiContent struct {
	Role  string       `json:"role"`
	Parts []geminiPart `json:"parts"`
}

type geminiPart struct {
	Text         *string `json:"text"`
	Thought      bool    `json:"thought"`
	FunctionCall *struct {
		Name string `json:"name"`
	} `json:"functionCall"`
	FunctionResponse *struct {
		ID       string          `json:"id"`
		Name     string          `json:"name"`
		Response json.RawMessage `json:"response"`
	} `json:"functionResponse"`
}

// geminiContextPrefix starts the text part Gemini CLI injects before the
// first prompt of a session (its <session_context> block); like Claude
// Code's <system-reminder> blocks it is no prompt.
const geminiContextPrefix = "<session_context>"

// parseGemini decodes a generateContent body into Facts: System holds the
// systemInstruction's text parts, Prompt the newest user text, ToolResults
// the function responses of the last user entry.
func parseGemini(body []byte, model string, stream bool) (Facts, error) {
	f := Facts{Model: model, Stream: stream, System: []string{}, SystemMessages: []string{}, Tools: []string{}, ToolResults: []ToolResult{}}
	var req geminiRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return f, fmt.Errorf("request body is not a generateContent request: %w", err)
	}
	f.Messages = len(req.Contents)
	if req.SystemInstruction != nil {
		for _, p := range req.SystemInstruction.Parts {
			if p.Text != nil {
				f.System = append(f.System, *p.Text)
			}
		}
	}
	for _, t := range req.Tools {
		for _, d := range t.FunctionDeclarations {
			f.Tools = append(f.Tools, d.Name)
		}
	}
	f.Schema = req.GenerationConfig.ResponseJSONSchema
	if len(f.Schema) == 0 {
		f.Schema = req.GenerationConfig.ResponseSchema
	}
	if len(req.Contents) == 0 {
		return f, errors.New("contents: at least one entry is required")
	}
	f.Prompt = geminiPrompt(req.Contents)
	if last := req.Contents[len(req.Contents)-1]; last.Role == "user" {
		for _, p := range last.Parts {
			if p.FunctionResponse != nil {
				f.ToolResults = append(f.ToolResults, geminiToolResult(p.FunctionResponse.ID, p.FunctionResponse.Response))
			}
		}
	}
	return f, nil
}

// geminiPrompt is the last text part of the newest user entry that has
// one, the injected session context left out.
func geminiPrompt(contents []geminiContent) string {
	for i := len(contents) - 1; i >= 0; i-- {
		if contents[i].Role != "user" {
			continue
		}
		for j := len(contents[i].Parts) - 1; j >= 0; j-- {
			p := contents[i].Parts[j]
			if p.Text != nil && !p.Thought && strings.TrimSpace(*p.Text) != "" && !strings.HasPrefix(strings.TrimSpace(*p.Text), geminiContextPrefix) {
				return *p.Text
			}
		}
	}
	return ""
}

// geminiToolResult reads a function response: {"output": …} is the
// result's text, {"error": …} a failed call's; any other shape is kept as
// its JSON.
func geminiToolResult(id string, raw json.RawMessage) ToolResult {
	var r struct {
		Output json.RawMessage `json:"output"`
		Error  json.RawMessage `json:"error"`
	}
	_ = json.Unmarshal(raw, &r)
	text := func(v json.RawMessage) string {
		var s string
		if json.Unmarshal(v, &s) == nil {
			return s
		}
		return string(v)
	}
	switch {
	case len(r.Error) > 0:
		return ToolResult{ToolUseID: id, IsError: true, Content: text(r.Error)}
	case len(r.Output) > 0:
		return ToolResult{ToolUseID: id, Content: text(r.Output)}
	}
	return ToolResult{ToolUseID: id, Content: string(raw)}
}
