package decision

import (
	"context"
	"strings"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/contract/modelsapi"
)

// Why a chat's answer ended, as MCP's sampling names it.
const (
	StopEndTurn   = "endTurn"
	StopMaxTokens = "maxTokens"
)

// DefaultChatMaxTokens bounds a chat's answer when the request sets no
// bound (an Anthropic request must give one).
const DefaultChatMaxTokens = 1024

// ChatRequest is a free-text request of the decision's model, asked
// with the decision configuration's provider, model, endpoint, timeout
// and admission: an MCP server's sampling request is one. Samples,
// retries and reasons do not apply: the answer is text, not a choice.
type ChatRequest struct {
	// System is the system prompt ("": none).
	System string
	// Messages are the conversation, user and assistant turns in order.
	Messages []ChatMessage
	// MaxTokens bounds the answer (0: DefaultChatMaxTokens).
	MaxTokens int
	// Layers are the decision configuration's layers, lowest first.
	Layers []Layer
}

// ChatMessage is one text turn of a chat.
type ChatMessage struct {
	// Role is "user" or "assistant".
	Role string
	Text string
}

// ChatReply is a chat's answer.
type ChatReply struct {
	Text string
	// StopReason is StopEndTurn or StopMaxTokens.
	StopReason string
	Provider   string
	Model      string
	Usage      *agentproto.CallUsage
}

// Chat answers req with one model request: the configuration's provider
// answers (the test provider from its script's text entries), in a slot
// of the decisions' pool, within the configuration's timeout. emit gets
// the request's usage event, as a decision's requests do.
func (a *Asker) Chat(ctx context.Context, req ChatRequest, emit Emit) (*ChatReply, error) {
	cfg, err := Resolve(req.Layers...)
	if err != nil {
		return nil, err
	}
	if cfg.Provider == ProviderTest {
		return chatScripted(req, cfg)
	}
	ctx, cancel := context.WithTimeoutCause(ctx, cfg.Timeout, errTimeout)
	defer cancel()
	t, err := a.target(ctx, &cfg)
	if err != nil {
		return nil, timedOut(ctx, cfg, err)
	}
	facts := map[string]any{"provider": cfg.Provider, "model": cfg.Model, "endpoint": t.endpoint.String()}
	reply, err := a.chat(ctx, req, cfg, t, emit)
	if err != nil {
		return nil, withFacts(timedOut(ctx, cfg, err), facts)
	}
	return reply, nil
}

func (a *Asker) chat(ctx context.Context, req ChatRequest, cfg Config, t target, emit Emit) (*ChatReply, error) {
	b, err := a.backendOf(ctx, nil, cfg, t)
	if err != nil {
		return nil, err
	}
	maxTokens := req.MaxTokens
	if maxTokens <= 0 {
		maxTokens = DefaultChatMaxTokens
	}
	messages := chatMessages(req)
	var answer turn
	ask := func() (err error) {
		answer, err = b.chat(ctx, messages, maxTokens)
		return err
	}
	if err := a.admitted(ctx, func() {}, ask); err != nil {
		return nil, err
	}
	u := usageOf(cfg, t.price, answer)
	emit(u)
	usage := &agentproto.CallUsage{Turns: 1, Tokens: answer.tokens.Total()}
	if u.CostUSD != nil {
		usage.USD = *u.CostUSD
	} else {
		usage.UnknownCostTurns = 1
	}
	stop := StopEndTurn
	if answer.truncated {
		stop = StopMaxTokens
	}
	return &ChatReply{Text: answer.content, StopReason: stop, Provider: cfg.Provider, Model: cfg.Model, Usage: usage}, nil
}

// chatMessages are req's turns as a backend sends them, the system
// prompt first.
func chatMessages(req ChatRequest) []message {
	var out []message
	if req.System != "" {
		out = append(out, message{Role: "system", Content: req.System})
	}
	for _, m := range req.Messages {
		out = append(out, message{Role: m.Role, Content: m.Text})
	}
	return out
}

// usageOf is a request's usage event, priced from the catalog when the
// model has a price (else its cost stays unknown).
func usageOf(cfg Config, price *modelsapi.Price, t turn) *eventapi.Usage {
	u := &eventapi.Usage{Tokens: t.tokens, Provider: cfg.Provider, Model: cfg.Model}
	if price != nil {
		usd := price.USD(modelsapi.TurnTokens{Input: t.tokens.InputTokens, Output: t.tokens.OutputTokens,
			CacheRead: t.tokens.CacheReadInputTokens, CacheWrite: t.tokens.CacheCreationInputTokens, Reasoning: t.tokens.ReasoningOutputTokens})
		u.CostUSD, u.CostProvenance = &usd, eventapi.CostPriced
	}
	return u
}

// chatScripted answers a chat from the script: the first entry with text
// (or one that fails, of kind text) whose when matches the last user
// message. No model is called, so there is no usage.
func chatScripted(req ChatRequest, cfg Config) (*ChatReply, error) {
	prompt := ""
	for _, m := range req.Messages {
		if m.Role == "user" {
			prompt = m.Text
		}
	}
	q := question{Question: agentproto.Question{Kind: KindText, Prompt: prompt}}
	for i, s := range cfg.Script {
		if !s.answersText() || !s.When.matches(q) {
			continue
		}
		if s.Fail != "" {
			return nil, scriptedFailure(s, i)
		}
		text, stop := s.Text, StopEndTurn
		if limit := req.MaxTokens; limit > 0 && len(strings.Fields(text)) > limit {
			// A scripted answer counts a word a token.
			text, stop = strings.Join(strings.Fields(text)[:limit], " "), StopMaxTokens
		}
		return &ChatReply{Text: text, StopReason: stop, Provider: ProviderTest, Model: cfg.Model}, nil
	}
	return nil, agentproto.Errorf(agentproto.CodeDecisionConfiguration,
		"no scripted text answers this request (last user message %q): add an entry with text to the test case's decisions", cut(prompt, 200))
}
