package codex

import (
	"encoding/json"
	"sort"
	"sync"
	"time"

	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// observer maps the app-server's notifications to Stratos events
// . It runs on the reader goroutine, so events keep Codex's
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

// details reports the counts in Stratos's usage terms, where inputTokens
// excludes cache reads (as Anthropic counts them and as prices are quoted):
// Codex's inputTokens includes its cachedInputTokens, so reporting both as
// they come would price and budget the cached part twice.
func (a tokenCounts) details() map[string]any {
	return map[string]any{"inputTokens": max(0, a.InputTokens-a.CachedInputTokens), "outputTokens": a.OutputTokens,
		"cacheReadInputTokens": a.CachedInputTokens, "reasoningOutputTokens": a.ReasoningOutputTokens, "totalTokens": a.TotalTokens}
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

func (o *observer) event(typ string, ids map[string]string, details map[string]any) {
	o.mu.Lock()
	if o.threadID != "" {
		if ids == nil {
			ids = map[string]string{}
		}
		ids["nativeSessionId"] = o.threadID
	}
	o.mu.Unlock()
	o.emit(adapter.Event{Type: typ, Time: time.Now(), IDs: ids, Details: details})
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
		o.event(adapter.EventModelStarted, map[string]string{"turnId": n.TurnID}, nil)
	case "item/agentMessage/delta":
		o.event(adapter.EventMessageDelta, map[string]string{"messageId": n.ItemID}, map[string]any{"kind": "text", "text": n.Delta})
	case "item/reasoning/summaryTextDelta", "item/reasoning/textDelta":
		o.event(adapter.EventMessageDelta, map[string]string{"messageId": n.ItemID}, map[string]any{"kind": "thinking", "text": n.Delta})
	case "item/started":
		o.itemStarted(n.Item)
	case "item/completed":
		o.itemCompleted(n.Item)
	case "thread/tokenUsage/updated":
		if n.TokenUsage != nil {
			o.mu.Lock()
			o.total = n.TokenUsage.Total
			o.mu.Unlock()
			o.event(adapter.EventModelCompleted, map[string]string{"turnId": n.TurnID}, map[string]any{"usage": n.TokenUsage.Last.details()})
		}
	case "error":
		if n.WillRetry && n.Error != nil {
			kind, status := n.Error.errorInfo()
			o.event(adapter.EventModelRetry, nil, map[string]any{"message": n.Error.Message, "codexErrorInfo": kind, "errorStatus": status})
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
		o.event(adapter.EventBackgroundStarted, map[string]string{"taskId": id, "toolCallId": id}, map[string]any{"taskType": "command"})
	}
	o.mu.Lock()
	used := o.total.minus(o.lastTotal)
	o.lastTotal = o.total
	o.mu.Unlock()
	d := used.details()
	if n.Turn != nil {
		d["status"] = n.Turn.Status
	}
	if o.backend != nil {
		if provider, model := o.backend(); provider != "" {
			d["provider"] = provider
			if model != "" {
				d["model"] = model
			}
		}
	}
	o.event(adapter.EventUsage, map[string]string{"turnId": n.TurnID}, d)
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

func toolInput(it *item) any {
	switch it.Type {
	case "commandExecution":
		if len(it.CommandActions) == 1 {
			return map[string]any{"command": it.CommandActions[0].Command}
		}
		return map[string]any{"command": it.Command}
	case "mcpToolCall":
		return decodeJSON(it.Arguments)
	case "fileChange":
		return map[string]any{"changes": decodeJSON(it.Changes)}
	case "webSearch":
		return map[string]any{"query": it.Query}
	}
	return nil
}

func (o *observer) itemStarted(it *item) {
	if it == nil {
		return
	}
	if it.Type == "contextCompaction" {
		o.event(adapter.EventCompactionStarted, nil, nil)
		return
	}
	if it.Type == "commandExecution" {
		o.mu.Lock()
		o.commands[it.ID] = false
		o.mu.Unlock()
	}
	if name := toolName(it); name != "" {
		o.event(adapter.EventToolStarted, map[string]string{"toolCallId": it.ID}, map[string]any{"toolName": name, "input": toolInput(it)})
	}
}

func (o *observer) itemCompleted(it *item) {
	if it == nil {
		return
	}
	if it.Type == "contextCompaction" {
		o.event(adapter.EventCompactionCompleted, nil, nil)
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
		o.event(adapter.EventBackgroundCompleted, map[string]string{"taskId": it.ID, "toolCallId": it.ID}, map[string]any{"status": it.Status})
	}
	failed := it.Status == "failed" || it.Status == "declined"
	d := map[string]any{"toolName": name, "isError": failed, "status": it.Status}
	switch {
	case failed && it.Error != nil:
		d["error"] = map[string]any{"message": it.Error.Message}
	case failed:
		d["error"] = map[string]any{"message": "the tool call " + it.Status}
	case it.Type == "commandExecution":
		if it.AggregatedOutput != nil {
			d["output"] = *it.AggregatedOutput
		}
		if it.ExitCode != nil {
			d["exitCode"] = *it.ExitCode
		}
	case len(it.Result) > 0:
		d["output"] = decodeJSON(it.Result)
	}
	o.event(adapter.EventToolCompleted, map[string]string{"toolCallId": it.ID}, d)
}

func decodeJSON(raw json.RawMessage) any {
	if len(raw) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	return v
}
