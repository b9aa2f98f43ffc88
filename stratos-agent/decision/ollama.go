package decision

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/ollama"
)

// maxReply bounds the reply a backend reads: a decision's answer is a few
// hundred bytes, so a megabyte is far above any real one.
const maxReply = 1 << 20

// message is one chat message of a decision's request.
type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// turn is what one model request came back with.
type turn struct {
	content string
	tokens  eventapi.Tokens
	// logprobs are the content's tokens with their log-probabilities,
	// nil when the endpoint reports none.
	logprobs []tokenLogprob
	// truncated says the answer ended at its token limit.
	truncated bool
}

// ollamaBackend asks an Ollama server's native chat API, with the answer's
// JSON Schema as the structured output format.
type ollamaBackend struct {
	http   *http.Client
	host   ollama.Host
	model  string
	schema json.RawMessage
	cfg    Config
}

// ollamaChatRequest is the body of POST /api/chat.
type ollamaChatRequest struct {
	Model    string          `json:"model"`
	Messages []message       `json:"messages"`
	Stream   bool            `json:"stream"`
	Format   json.RawMessage `json:"format,omitempty"`
	Options  *ollamaOptions  `json:"options,omitempty"`
}

// ollamaOptions are the sampling settings a decision sends when set;
// without them the model's own apply.
type ollamaOptions struct {
	Temperature *float64 `json:"temperature,omitempty"`
	Seed        *int64   `json:"seed,omitempty"`
	NumPredict  int      `json:"num_predict,omitempty"`
}

// ollamaChatReply is the part of /api/chat's answer a decision reads.
type ollamaChatReply struct {
	Message struct {
		Content string `json:"content"`
	} `json:"message"`
	Done            bool   `json:"done"`
	DoneReason      string `json:"done_reason"`
	PromptEvalCount int64  `json:"prompt_eval_count"`
	EvalCount       int64  `json:"eval_count"`
}

// ask sends one request for the given sample (1-based: sample i gets
// seed + i - 1, since the same seed would give the same answer).
func (b *ollamaBackend) ask(ctx context.Context, messages []message, sample int) (turn, error) {
	req := ollamaChatRequest{Model: b.model, Messages: messages, Format: b.schema}
	if b.cfg.Temperature != nil || b.cfg.Seed != nil {
		req.Options = &ollamaOptions{Temperature: b.cfg.Temperature}
		if b.cfg.Seed != nil {
			seed := *b.cfg.Seed + int64(sample-1)
			req.Options.Seed = &seed
		}
	}
	return b.post(ctx, req)
}

// chat sends one free-text request: no format, at most maxTokens
// predicted ("length": cut there).
func (b *ollamaBackend) chat(ctx context.Context, messages []message, maxTokens int) (turn, error) {
	req := ollamaChatRequest{Model: b.model, Messages: messages,
		Options: &ollamaOptions{Temperature: b.cfg.Temperature, Seed: b.cfg.Seed, NumPredict: maxTokens}}
	return b.post(ctx, req)
}

func (b *ollamaBackend) post(ctx context.Context, req ollamaChatRequest) (turn, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return turn{}, err
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, b.host.URL("/api/chat"), bytes.NewReader(body))
	if err != nil {
		return turn{}, b.endpointError("cannot make the request: %v", err)
	}
	hr.Header.Set("Content-Type", "application/json")
	resp, err := b.http.Do(hr)
	if err != nil {
		if ctx.Err() != nil {
			return turn{}, context.Cause(ctx)
		}
		return turn{}, b.endpointError("not reachable (POST /api/chat: %v); is `ollama serve` running there?", urlCause(err)).Wrap(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxReply+1))
	if err != nil {
		if ctx.Err() != nil {
			return turn{}, context.Cause(ctx)
		}
		return turn{}, b.endpointError("reading the answer to POST /api/chat: %v", err).Wrap(err)
	}
	if len(data) > maxReply {
		return turn{}, b.endpointError("the answer to POST /api/chat is larger than %d bytes", maxReply)
	}
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return turn{}, agentproto.Errorf(agentproto.CodeDecisionModelUnavailable, "Ollama at %s: %s", b.host, serverMessage(data))
	case resp.StatusCode/100 != 2:
		return turn{}, b.endpointError("POST /api/chat answered HTTP %d: %s", resp.StatusCode, serverMessage(data))
	}
	var r ollamaChatReply
	if err := json.Unmarshal(data, &r); err != nil || !r.Done {
		return turn{}, b.endpointError("the answer to POST /api/chat is not Ollama's reply: %s", shown(data))
	}
	return turn{content: r.Message.Content, truncated: r.DoneReason == "length", tokens: eventapi.Tokens{InputTokens: r.PromptEvalCount, OutputTokens: r.EvalCount}}, nil
}

func (b *ollamaBackend) endpointError(format string, args ...any) *agentproto.Error {
	return agentproto.Errorf(agentproto.CodeDecisionEndpoint, "Ollama at %s: %s", b.host, fmt.Sprintf(format, args...))
}

// serverMessage is Ollama's {"error": "…"} text, else the answer itself,
// cut short.
func serverMessage(data []byte) string {
	var e struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(data, &e) == nil && e.Error != "" {
		return e.Error
	}
	return shown(data)
}

func urlCause(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// answerable checks, with the server's inventory, that the model can
// answer a decision: installed, local, with completion.
func answerable(ctx context.Context, hc *http.Client, host ollama.Host, model string) error {
	_, err := ollama.Client{Host: host, HTTP: hc}.Answerable(ctx, model)
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	var oe *ollama.Error
	if !errors.As(err, &oe) {
		return agentproto.Errorf(agentproto.CodeDecisionEndpoint, "%v", err).Wrap(err)
	}
	code := agentproto.CodeDecisionEndpoint
	switch oe.Code {
	case ollama.CodeModelMissing, ollama.CodeModelIneligible:
		code = agentproto.CodeDecisionModelUnavailable
	case ollama.CodeInvalidName:
		code = agentproto.CodeDecisionConfiguration
	}
	return agentproto.Errorf(code, "%v", err).WithDetails(oe.Details()).Wrap(err)
}
