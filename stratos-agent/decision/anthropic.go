package decision

import (
	"context"
	"encoding/json"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
)

// Anthropic Messages API constants a decision's request uses.
const (
	messagesPath     = "/v1/messages"
	anthropicVersion = "2023-06-01"
	// answerTool is the one tool a decision offers, and forces: its input
	// is the answer, so the input schema is the answer's.
	answerTool = "answer"
	// maxAnswerTokens bounds a reply: an answer with a reason is far
	// shorter.
	maxAnswerTokens = 1024
)

// anthropicBackend asks the Anthropic Messages API, with one tool whose
// input schema is the answer's, forced with tool_choice (the API's way to
// structured output). The API has no seed; a set seed is not sent.
type anthropicBackend struct {
	api    api
	model  string
	schema json.RawMessage
	cfg    Config
}

type anthropicRequest struct {
	Model       string          `json:"model"`
	MaxTokens   int             `json:"max_tokens"`
	System      string          `json:"system,omitempty"`
	Messages    []message       `json:"messages"`
	Tools       []anthropicTool `json:"tools"`
	ToolChoice  anthropicChoice `json:"tool_choice"`
	Temperature *float64        `json:"temperature,omitempty"`
}

// anthropicChatRequest is the body of a free-text POST /v1/messages.
type anthropicChatRequest struct {
	Model       string    `json:"model"`
	MaxTokens   int       `json:"max_tokens"`
	System      string    `json:"system,omitempty"`
	Messages    []message `json:"messages"`
	Temperature *float64  `json:"temperature,omitempty"`
}

type anthropicTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

type anthropicChoice struct {
	Type string `json:"type"`
	Name string `json:"name"`
}

// anthropicReply is the part of a Messages API answer a decision reads.
type anthropicReply struct {
	Type       string `json:"type"`
	StopReason string `json:"stop_reason"`
	Content    []struct {
		Type  string          `json:"type"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
		Text  string          `json:"text"`
	} `json:"content"`
	Usage struct {
		InputTokens              int64 `json:"input_tokens"`
		OutputTokens             int64 `json:"output_tokens"`
		CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
		CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
	} `json:"usage"`
}

// ask sends one request. The system message becomes the request's system
// prompt; the reply is the answer tool's input, else the reply's text
// (which validation then rejects, and the model is asked again).
func (b *anthropicBackend) ask(ctx context.Context, messages []message, _ int) (turn, error) {
	req := anthropicRequest{Model: b.model, MaxTokens: maxAnswerTokens, Temperature: b.cfg.Temperature,
		Tools:      []anthropicTool{{Name: answerTool, Description: "Give your answer to the question.", InputSchema: b.schema}},
		ToolChoice: anthropicChoice{Type: "tool", Name: answerTool}}
	req.System, req.Messages = splitSystem(messages)
	r, err := b.post(ctx, req)
	if err != nil {
		return turn{}, err
	}
	t := turn{tokens: r.tokens()}
	for _, c := range r.Content {
		switch {
		case c.Type == "tool_use" && c.Name == answerTool:
			return turn{content: string(c.Input), tokens: t.tokens}, nil
		case c.Type == "text":
			t.content += c.Text
		}
	}
	return t, nil
}

// chat sends one free-text request without tools, its answer at most
// maxTokens long (stop_reason max_tokens: cut there).
func (b *anthropicBackend) chat(ctx context.Context, messages []message, maxTokens int) (turn, error) {
	req := anthropicChatRequest{Model: b.model, MaxTokens: maxTokens, Temperature: b.cfg.Temperature}
	req.System, req.Messages = splitSystem(messages)
	r, err := b.post(ctx, req)
	if err != nil {
		return turn{}, err
	}
	t := turn{tokens: r.tokens(), truncated: r.StopReason == "max_tokens"}
	for _, c := range r.Content {
		if c.Type == "text" {
			t.content += c.Text
		}
	}
	return t, nil
}

// splitSystem takes the system message out of messages: the API has it
// as the request's system prompt.
func splitSystem(messages []message) (string, []message) {
	system := ""
	var rest []message
	for _, m := range messages {
		if m.Role == "system" {
			system = m.Content
			continue
		}
		rest = append(rest, m)
	}
	return system, rest
}

// post sends one Messages API request and reads its reply.
func (b *anthropicBackend) post(ctx context.Context, req any) (anthropicReply, error) {
	status, data, err := b.api.post(ctx, messagesPath, req)
	if err != nil {
		return anthropicReply{}, err
	}
	if status/100 != 2 {
		return anthropicReply{}, b.api.statusError("POST "+messagesPath, status, anthropicMessage(data), keyVarOf(ProviderAnthropic))
	}
	var r anthropicReply
	if err := json.Unmarshal(data, &r); err != nil || r.Type != "message" {
		return anthropicReply{}, b.api.errorf(agentproto.CodeDecisionEndpoint, "the answer to POST %s is not a Messages API reply: %s", messagesPath, shown(data))
	}
	return r, nil
}

func (r anthropicReply) tokens() eventapi.Tokens {
	return eventapi.Tokens{InputTokens: r.Usage.InputTokens, OutputTokens: r.Usage.OutputTokens,
		CacheReadInputTokens: r.Usage.CacheReadInputTokens, CacheCreationInputTokens: r.Usage.CacheCreationInputTokens}
}

// anthropicMessage is an Anthropic error's message, else the answer
// itself, cut short.
func anthropicMessage(data []byte) string {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(data, &e) == nil && e.Error.Message != "" {
		return e.Error.Message
	}
	return shown(data)
}
