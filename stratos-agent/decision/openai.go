package decision

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
)

// chatPath is Chat Completions under an OpenAI-style base URL, which
// ends in /v1 (https://api.openai.com/v1, http://127.0.0.1:8000/v1).
const chatPath = "/chat/completions"

// openaiBackend asks an OpenAI-compatible Chat Completions endpoint, with
// the answer's JSON Schema as a strict json_schema response format and,
// unless the endpoint refused them before, the tokens' log-probabilities.
type openaiBackend struct {
	api    api
	model  string
	schema json.RawMessage
	cfg    Config
	// refused remembers the endpoints and models that refuse logprobs
	// or max_tokens.
	refused *refusedParams
}

// openaiRequest is the body of POST /chat/completions.
type openaiRequest struct {
	Model          string               `json:"model"`
	Messages       []message            `json:"messages"`
	ResponseFormat openaiResponseFormat `json:"response_format"`
	Logprobs       bool                 `json:"logprobs,omitempty"`
	Temperature    *float64             `json:"temperature,omitempty"`
	Seed           *int64               `json:"seed,omitempty"`
}

// openaiChatRequest is the body of a free-text POST /chat/completions.
// The bound is max_tokens, which OpenAI-compatible local servers know,
// unless the endpoint refused it: OpenAI's reasoning models take only
// max_completion_tokens.
type openaiChatRequest struct {
	Model               string    `json:"model"`
	Messages            []message `json:"messages"`
	MaxTokens           int       `json:"max_tokens,omitempty"`
	MaxCompletionTokens int       `json:"max_completion_tokens,omitempty"`
	Temperature         *float64  `json:"temperature,omitempty"`
	Seed                *int64    `json:"seed,omitempty"`
}

type openaiResponseFormat struct {
	Type       string `json:"type"`
	JSONSchema struct {
		Name   string          `json:"name"`
		Strict bool            `json:"strict"`
		Schema json.RawMessage `json:"schema"`
	} `json:"json_schema"`
}

// openaiReply is the part of a Chat Completions answer a decision reads.
type openaiReply struct {
	Choices []struct {
		Message struct {
			Content *string `json:"content"`
			Refusal *string `json:"refusal"`
		} `json:"message"`
		Logprobs *struct {
			Content []tokenLogprob `json:"content"`
		} `json:"logprobs"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage struct {
		PromptTokens        int64 `json:"prompt_tokens"`
		CompletionTokens    int64 `json:"completion_tokens"`
		PromptTokensDetails struct {
			CachedTokens int64 `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
		CompletionTokensDetails struct {
			ReasoningTokens int64 `json:"reasoning_tokens"`
		} `json:"completion_tokens_details"`
	} `json:"usage"`
}

// ask sends one request for the given sample (sample i gets seed + i - 1).
// An endpoint that answers HTTP 400 about logprobs is asked again
// without them, and not asked for them again by this host.
func (b *openaiBackend) ask(ctx context.Context, messages []message, sample int) (turn, error) {
	req := openaiRequest{Model: b.model, Messages: messages, Temperature: b.cfg.Temperature,
		Logprobs: b.refused.accepts(paramLogprobs, b.api.endpoint.String(), b.model)}
	req.ResponseFormat.Type = "json_schema"
	req.ResponseFormat.JSONSchema.Name, req.ResponseFormat.JSONSchema.Strict, req.ResponseFormat.JSONSchema.Schema = "answer", true, b.schema
	if b.cfg.Seed != nil {
		seed := *b.cfg.Seed + int64(sample-1)
		req.Seed = &seed
	}
	status, data, err := b.api.post(ctx, chatPath, req)
	if err != nil {
		return turn{}, err
	}
	if status == http.StatusBadRequest && req.Logprobs && strings.Contains(strings.ToLower(openaiMessage(data)), "logprobs") {
		b.refused.refused(paramLogprobs, b.api.endpoint.String(), b.model)
		req.Logprobs = false
		if status, data, err = b.api.post(ctx, chatPath, req); err != nil {
			return turn{}, err
		}
	}
	return b.turnOf(status, data)
}

// chat sends one free-text request, its answer at most maxTokens long
// (finish_reason "length": cut there). An endpoint that answers HTTP 400
// about max_tokens is asked again with max_completion_tokens, and asked
// that way from then on by this host.
func (b *openaiBackend) chat(ctx context.Context, messages []message, maxTokens int) (turn, error) {
	endpoint := b.api.endpoint.String()
	req := openaiChatRequest{Model: b.model, Messages: messages, Temperature: b.cfg.Temperature, Seed: b.cfg.Seed}
	oldName := b.refused.accepts(paramMaxTokens, endpoint, b.model)
	if oldName {
		req.MaxTokens = maxTokens
	} else {
		req.MaxCompletionTokens = maxTokens
	}
	status, data, err := b.api.post(ctx, chatPath, req)
	if err != nil {
		return turn{}, err
	}
	if status == http.StatusBadRequest && oldName && strings.Contains(openaiMessage(data), "max_completion_tokens") {
		b.refused.refused(paramMaxTokens, endpoint, b.model)
		req.MaxTokens, req.MaxCompletionTokens = 0, maxTokens
		if status, data, err = b.api.post(ctx, chatPath, req); err != nil {
			return turn{}, err
		}
	}
	return b.turnOf(status, data)
}

// turnOf reads a Chat Completions answer.
func (b *openaiBackend) turnOf(status int, data []byte) (turn, error) {
	if status/100 != 2 {
		return turn{}, b.api.statusError("POST "+chatPath, status, openaiMessage(data), keyVarOf(ProviderOpenAI))
	}
	var r openaiReply
	if err := json.Unmarshal(data, &r); err != nil || len(r.Choices) == 0 {
		return turn{}, b.api.errorf(agentproto.CodeDecisionEndpoint, "the answer to POST %s is not a Chat Completions reply: %s", chatPath, shown(data))
	}
	c := r.Choices[0]
	t := turn{truncated: c.FinishReason == "length", tokens: eventapi.Tokens{
		InputTokens:           r.Usage.PromptTokens - r.Usage.PromptTokensDetails.CachedTokens,
		CacheReadInputTokens:  r.Usage.PromptTokensDetails.CachedTokens,
		OutputTokens:          r.Usage.CompletionTokens,
		ReasoningOutputTokens: r.Usage.CompletionTokensDetails.ReasoningTokens,
	}}
	switch {
	case c.Message.Content != nil:
		t.content = *c.Message.Content
	case c.Message.Refusal != nil:
		t.content = "(the model refused: " + *c.Message.Refusal + ")"
	}
	if c.Logprobs != nil {
		t.logprobs = c.Logprobs.Content
	}
	return t, nil
}

// openaiMessage is an OpenAI error's message, else the answer itself, cut
// short.
func openaiMessage(data []byte) string {
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
