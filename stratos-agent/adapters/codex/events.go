package codex

import (
	"encoding/json"
	"sort"
	"sync"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// observer maps the app-server's notifications to Stratos events. It runs on the reader goroutine, so events keep Codex's
// order.
type observer struct {
	emit func(adapter.Event)
	// backend is the catalog provider and the model the session's turns
	// use, reported with each turn's usage so the host can price it.
	backend func() (provider, model string)

	mu        sync.Mutex
	threadID  string
	lastTotal tokenCounts // thread total at the end of the previous turn
	total     tokenCounts // newest thread total
	// commands are the running commands by item id; true once their turn
	// ended without them (background work: Codex keeps a command the
	// model left running after its yield time).
	commands map[string]bool
}

// tokenCounts is Codex's TokenUsageBreakdown.
type tokenCounts struct {
	TotalTokens           int `json:"totalTokens"`
	InputTokens           int `json:"inputTokens"`
	CachedInputTokens     int `json:"cachedInputTokens"`
	OutputTokens          int `json:"outputTokens"`
	ReasoningOutputTokens int `json:"reasoningOutputTokens"`
}

func (a tokenCounts) minus(b tokenCounts) tokenCounts {
	return tokenCounts{TotalTokens: a.TotalTokens - b.TotalTokens, InputTokens: a.InputTokens - b.InputTokens,
		CachedInputTokens: a.CachedInputTokens - b.CachedInputTokens, OutputTokens: a.OutputTokens - b.OutputTokens,
		ReasoningOutputTokens: a.ReasoningOutputTokens - b.ReasoningOutputTokens}
}

// tokens are the counts in the vocabulary's terms, where inputTokens
// excludes cache reads (as Anthropic counts them and as prices are quoted):
// Codex's inputTokens includes its cachedInputTokens, so reporting both as
// they come would price and budget the cached part twice. Codex's own
// total is not reported: it is the sum of the others.
func (a tokenCounts) tokens() eventapi.Tokens {
	return eventapi.Tokens{InputTokens: int64(max(0, a.InputTokens-a.CachedInputTokens)), OutputTokens: int64(a.OutputTokens),
		CacheReadInputTokens: int64(a.CachedInputTokens), ReasoningOutputTokens: int64(a.ReasoningOutputTokens)}
}

func newObserver(emit func(adapter.Event), backend func() (provider, model string)) *observer {
	return &observer{emit: emit, backend: backend, commands: map[string]bool{}}
}

// notice is the union of the notification params the observer reads.
type notice struct {
	ThreadID   string          `json:"threadId"`
	TurnID     string          `json:"turnId"`
	ItemID     string          `json:"itemId"`
	Delta      string          `json:"delta"`
	Item       *item           `json:"item"`
	Turn       *turnEnd        `json:"turn"`
	TokenUsage *tokenUsage     `json:"tokenUsage"`
	Error      *turnError      `json:"error"`
	WillRetry  bool            `json:"willRetry"`
	Run        *hookRun        `json:"run"`
	Thread     json.RawMessage `json:"thread"`
}

type tokenUsage struct {
	Total tokenCounts `json:"total"`
	Last  tokenCounts `json:"last"`
}

// item is a ThreadItem, with the fields of the kinds Stratos reports.
type item struct {
	Type             string                     `json:"type"`
	ID               string                     `json:"id"`
	Text             string                     `json:"text"`
	Status           string                     `json:"status"`
	Command          string                     `json:"command"`
	CommandActions   []struct{ Command string } `json:"commandActions"`
	AggregatedOutput *string                    `json:"aggregatedOutput"`
	ExitCode         *int                       `json:"exitCode"`
	Server           string                     `json:"server"`
	Tool             string                     `json:"tool"`
	Arguments        json.RawMessage            `json:"arguments"`
	Result           json.RawMessage            `json:"result"`
	Error            *struct {
		Message string `json:"message"`
	} `json:"error"`
	Changes json.RawMessage `json:"changes"`
	Query   string          `json:"query"`
}

// hookRun is hook/completed's run summary.
type hookRun struct {
	EventName string `json:"eventName"`
	Status    string `json:"status"`
	Entries   []struct {
		Kind string `json:"kind"`
		Text string `json:"text"`
	} `json:"entries"`
}

func (o *observer) event(ids eventapi.IDs, d eventapi.Details) {
	o.mu.Lock()
	ids.NativeSessionID = o.threadID
	o.mu.Unlock()
	o.emit(adapter.NewEvent(ids, d))
}

func (o *observer) observe(method string, n *notice) {
	switch method {
	case "thread/started":
		var th struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(n.Thread, &th) == nil {
			// A new thread (the next candidate model) counts its tokens
			// from zero.
			o.mu.Lock()
			o.threadID, o.total, o.lastTotal = th.ID, tokenCounts{}, tokenCounts{}
			o.mu.Unlock()
		}
	case "turn/started":
		o.event(eventapi.IDs{TurnID: n.TurnID}, &eventapi.ModelStarted{})
	case "item/agentMessage/delta":
		o.event(eventapi.IDs{MessageID: n.ItemID}, &eventapi.MessageDelta{Kind: eventapi.DeltaText, Text: n.Delta})
	case "item/reasoning/summaryTextDelta", "item/reasoning/textDelta":
		o.event(eventapi.IDs{MessageID: n.ItemID}, &eventapi.MessageDelta{Kind: eventapi.DeltaThinking, Text: n.Delta})
	case "item/started":
		o.itemStarted(n.Item)
	case "item/completed":
		o.itemCompleted(n.Item)
	case "thread/tokenUsage/updated":
		if n.TokenUsage != nil {
			o.mu.Lock()
			o.total = n.TokenUsage.Total
			o.mu.Unlock()
			last := n.TokenUsage.Last.tokens()
			o.event(eventapi.IDs{TurnID: n.TurnID}, &eventapi.ModelCompleted{Usage: &last})
		}
	case "error":
		if n.WillRetry && n.Error != nil {
			kind, status := n.Error.errorInfo()
			o.event(eventapi.IDs{}, &eventapi.ModelRetry{Message: n.Error.Message, ErrorKind: kind, ErrorStatus: status})
		}
	case "turn/completed":
		o.turnCompleted(n)
	}
}

func (o *observer) turnCompleted(n *notice) {
	o.mu.Lock()
	var bg []string
	for id, background := range o.commands {
		if !background {
			o.commands[id] = true
			bg = append(bg, id)
		}
	}
	o.mu.Unlock()
	sort.Strings(bg)
	for _, id := range bg {
		o.event(eventapi.IDs{TaskID: id, ToolCallID: id}, &eventapi.BackgroundStarted{TaskType: "command"})
	}
	o.mu.Lock()
	used := o.total.minus(o.lastTotal)
	o.lastTotal = o.total
	o.mu.Unlock()
	d := &eventapi.Usage{Tokens: used.tokens()}
	if n.Turn != nil {
		d.Status = n.Turn.Status
	}
	if o.backend != nil {
		if provider, model := o.backend(); provider != "" {
			d.Provider, d.Model = provider, model
		}
	}
	o.event(eventapi.IDs{TurnID: n.TurnID}, d)
}

// toolName is the name Codex's hooks use for the item's tool (Bash,
// mcp__<server>__<tool>, apply_patch), so events and hooks agree.
func toolName(it *item) string {
	switch it.Type {
	case "commandExecution":
		return "Bash"
	case "mcpToolCall":
		return "mcp__" + it.Server + "__" + it.Tool
	case "fileChange":
		return "apply_patch"
	case "webSearch":
		return "web_search"
	case "dynamicToolCall", "collabAgentToolCall", "imageView", "imageGeneration":
		return it.Type
	}
	return ""
}

// toolInput is the item's input as its hooks see it.
func toolInput(it *item) json.RawMessage {
	switch it.Type {
	case "commandExecution":
		command := it.Command
		if len(it.CommandActions) == 1 {
			command = it.CommandActions[0].Command
		}
		return adapter.JSONOf(struct {
			Command string `json:"command"`
		}{command})
	case "mcpToolCall":
		return adapter.JSON(it.Arguments)
	case "fileChange":
		return adapter.JSONOf(struct {
			Changes json.RawMessage `json:"changes"`
		}{adapter.JSON(it.Changes)})
	case "webSearch":
		return adapter.JSONOf(struct {
			Query string `json:"query"`
		}{it.Query})
	}
	return nil
}

func (o *observer) itemStarted(it *item) {
	if it == nil {
		return
	}
	if it.Type == "contextCompaction" {
		o.event(eventapi.IDs{}, &eventapi.CompactionStarted{})
		return
	}
	if it.Type == "commandExecution" {
		o.mu.Lock()
		o.commands[it.ID] = false
		o.mu.Unlock()
	}
	if name := toolName(it); name != "" {
		o.event(eventapi.IDs{ToolCallID: it.ID}, &eventapi.ToolStarted{ToolName: name, Input: toolInput(it)})
	}
}

func (o *observer) itemCompleted(it *item) {
	if it == nil {
		return
	}
	if it.Type == "contextCompaction" {
		o.event(eventapi.IDs{}, &eventapi.CompactionCompleted{})
		return
	}
	name := toolName(it)
	if name == "" {
		return
	}
	o.mu.Lock()
	background := o.commands[it.ID]
	delete(o.commands, it.ID)
	o.mu.Unlock()
	if background {
		o.event(eventapi.IDs{TaskID: it.ID, ToolCallID: it.ID}, &eventapi.BackgroundCompleted{Status: it.Status})
	}
	failed := it.Status == "failed" || it.Status == "declined"
	d := &eventapi.ToolCompleted{ToolName: name, IsError: failed, Status: it.Status}
	switch {
	case failed && it.Error != nil:
		d.Error = &eventapi.Error{Message: it.Error.Message}
	case failed:
		d.Error = &eventapi.Error{Message: "the tool call " + it.Status}
	case it.Type == "commandExecution":
		if it.AggregatedOutput != nil {
			d.Output = adapter.JSONOf(*it.AggregatedOutput)
		}
		d.ExitCode = it.ExitCode
	case len(it.Result) > 0:
		d.Output = adapter.JSON(it.Result)
	}
	o.event(eventapi.IDs{ToolCallID: it.ID}, d)
}
