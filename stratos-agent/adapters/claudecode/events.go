package claudecode

import (
	"encoding/json"
	"sort"
	"sync"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// observer maps the CLI's frames to Stratos events
// (docs/design/claude-code-cli.md, "Events") and keeps what cancellation
// needs: the live background tasks. It runs on the reader goroutine, so
// events keep the CLI's order.
type observer struct {
	emit     func(adapter.Event)
	provider string // the backend the CLI runs on, reported with each turn's usage

	mu        sync.Mutex
	sessionID string
	toolNames map[string]string // tool_use id → name, for tool.completed
	messages  map[string]*modelCall
	tasks     map[string]backgroundTask // live background tasks (replace-set)
	lastCost  float64                   // total_cost_usd is cumulative per process
	lastModel string                    // the model of the latest message, reported with the turn's usage
}

// modelCall accumulates one model round trip between message_start and
// message_stop.
type modelCall struct {
	model      string
	usage      usage
	stopReason string
}

func newObserver(emit func(adapter.Event), provider string) *observer {
	return &observer{emit: emit, provider: provider, toolNames: map[string]string{}, messages: map[string]*modelCall{},
		tasks: map[string]backgroundTask{}}
}

func (o *observer) event(ids eventapi.IDs, d eventapi.Details) {
	o.mu.Lock()
	ids.NativeSessionID = o.sessionID
	o.mu.Unlock()
	o.emit(adapter.NewEvent(ids, d))
}

// liveTasks returns the ids of running background tasks, sorted.
func (o *observer) liveTasks() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	ids := make([]string, 0, len(o.tasks))
	for id := range o.tasks {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

func (o *observer) observe(f *frame) {
	switch f.Type {
	case "stream_event":
		o.streamEvent(f)
	case "assistant":
		o.assistant(f)
	case "user":
		o.user(f)
	case "system":
		o.system(f)
	}
}

// messageIDs are the ids of an event of message id, with the subagent's
// tool call when the frame is a subagent's.
func messageIDs(f *frame, id string) eventapi.IDs {
	return withParent(f, eventapi.IDs{MessageID: id})
}

func withParent(f *frame, ids eventapi.IDs) eventapi.IDs {
	if f.ParentToolUseID != nil {
		ids.ParentToolCallID = *f.ParentToolUseID
	}
	return ids
}

func (o *observer) streamEvent(f *frame) {
	var ev streamEvent
	if json.Unmarshal(f.Event, &ev) != nil {
		return
	}
	id := f.APIMessageID
	switch ev.Type {
	case "message_start":
		if ev.Message == nil {
			return
		}
		if id == "" {
			id = ev.Message.ID
		}
		o.mu.Lock()
		o.messages[id] = &modelCall{model: ev.Message.Model, usage: ev.Message.Usage}
		o.lastModel = ev.Message.Model
		o.mu.Unlock()
		o.event(messageIDs(f, id), &eventapi.ModelStarted{Model: ev.Message.Model, TTFTMs: f.TTFTMs})
	case "content_block_delta":
		switch ev.Delta.Type {
		case "text_delta":
			o.event(messageIDs(f, id), &eventapi.MessageDelta{Kind: eventapi.DeltaText, Text: ev.Delta.Text, Index: &ev.Index})
		case "thinking_delta":
			o.event(messageIDs(f, id), &eventapi.MessageDelta{Kind: eventapi.DeltaThinking, Text: ev.Delta.Thinking, Index: &ev.Index})
		}
	case "message_delta":
		o.mu.Lock()
		if m := o.messages[id]; m != nil {
			if ev.Delta.StopReason != nil {
				m.stopReason = *ev.Delta.StopReason
			}
			if ev.Usage != nil {
				m.usage.OutputTokens = ev.Usage.OutputTokens
			}
		}
		o.mu.Unlock()
	case "message_stop":
		o.mu.Lock()
		m := o.messages[id]
		delete(o.messages, id)
		o.mu.Unlock()
		if m == nil {
			return
		}
		tokens := m.usage.tokens()
		o.event(messageIDs(f, id), &eventapi.ModelCompleted{Model: m.model, StopReason: m.stopReason, Usage: &tokens})
	}
}

func (o *observer) assistant(f *frame) {
	for _, b := range f.Message.blocks() {
		if b.Type != "tool_use" || b.Name == structuredOutputTool {
			continue
		}
		o.mu.Lock()
		o.toolNames[b.ID] = b.Name
		o.mu.Unlock()
		o.event(withParent(f, eventapi.IDs{ToolCallID: b.ID}), &eventapi.ToolStarted{ToolName: b.Name, Input: adapter.JSON(b.Input)})
	}
}

func (o *observer) user(f *frame) {
	for _, b := range f.Message.blocks() {
		if b.Type != "tool_result" {
			continue
		}
		o.mu.Lock()
		name, ok := o.toolNames[b.ToolUseID]
		delete(o.toolNames, b.ToolUseID)
		o.mu.Unlock()
		if !ok {
			continue // the StructuredOutput call, or a tool of a turn not observed
		}
		d := &eventapi.ToolCompleted{ToolName: name, IsError: b.IsError}
		text := contentText(b.Content)
		if b.IsError {
			d.Error = &eventapi.Error{Message: text}
		} else if len(f.ToolUseResult) > 0 {
			d.Output = adapter.JSON(f.ToolUseResult)
		} else {
			d.Output = adapter.JSONOf(text)
		}
		o.event(withParent(f, eventapi.IDs{ToolCallID: b.ToolUseID}), d)
	}
}

func (o *observer) system(f *frame) {
	// The frame decoded already; a field of an unexpected type only stays
	// empty (Unmarshal fills the others and reports the first mismatch).
	var sf systemFields
	_ = json.Unmarshal(f.raw, &sf)
	switch f.Subtype {
	case "init":
		o.mu.Lock()
		o.sessionID = f.SessionID
		o.mu.Unlock()
	case "status":
		if f.Status != nil && *f.Status == "compacting" {
			o.event(eventapi.IDs{}, &eventapi.CompactionStarted{})
		}
	case "compact_boundary":
		o.event(eventapi.IDs{}, &eventapi.CompactionCompleted{Metadata: sf.CompactMetadata})
	case "task_started":
		o.mu.Lock()
		o.tasks[f.TaskID] = backgroundTask{TaskID: f.TaskID}
		o.mu.Unlock()
		o.event(taskIDs(f), &eventapi.BackgroundStarted{TaskType: sf.TaskType, Description: sf.Description, IsBackgrounded: sf.IsBackgrounded})
	case "task_updated", "task_progress":
		o.event(taskIDs(f), &eventapi.BackgroundActivity{Patch: sf.Patch, Status: sf.Status, Description: sf.Description, Summary: sf.Summary})
	case "task_notification":
		o.mu.Lock()
		delete(o.tasks, f.TaskID)
		o.mu.Unlock()
		o.event(taskIDs(f), &eventapi.BackgroundCompleted{Status: sf.Status, Summary: sf.Summary})
	case "background_tasks_changed":
		o.mu.Lock()
		o.tasks = map[string]backgroundTask{}
		for _, t := range f.Tasks {
			o.tasks[t.TaskID] = t
		}
		o.mu.Unlock()
	case "api_retry":
		o.event(eventapi.IDs{}, &eventapi.ModelRetry{Attempt: sf.Attempt, MaxRetries: sf.MaxRetries,
			RetryDelayMs: sf.RetryDelayMs, ErrorStatus: sf.ErrorStatus})
	}
}

// systemFields are the fields of the system frames that events report.
type systemFields struct {
	CompactMetadata json.RawMessage `json:"compact_metadata"`
	TaskType        string          `json:"task_type"`
	Description     string          `json:"description"`
	IsBackgrounded  *bool           `json:"is_backgrounded"`
	Patch           json.RawMessage `json:"patch"`
	Status          string          `json:"status"`
	Summary         string          `json:"summary"`
	Attempt         int             `json:"attempt"`
	MaxRetries      int             `json:"max_retries"`
	RetryDelayMs    float64         `json:"retry_delay_ms"`
	ErrorStatus     int             `json:"error_status"`
}

// turnUsage records one CLI turn's usage: tokens as reported for the turn,
// cost as the change of the process's cumulative total_cost_usd. A total
// below the last one started counting afresh, so the turn cost the new
// total; no turn is reported as costing less than nothing, which would
// give a budget back what other turns spent.
func (o *observer) turnUsage(r *resultFrame, uuid string) {
	o.mu.Lock()
	cost := r.TotalCostUSD - o.lastCost
	if cost < 0 {
		cost = max(r.TotalCostUSD, 0)
	}
	o.lastCost = r.TotalCostUSD
	model := o.lastModel
	o.mu.Unlock()
	o.event(eventapi.IDs{PromptID: uuid}, &eventapi.Usage{Tokens: r.Usage.tokens(), CostUSD: &cost, CostProvenance: eventapi.CostReported,
		Provider: o.provider, Model: model, NumTurns: r.NumTurns, DurationMs: r.DurationMs, DurationAPIMs: r.DurationAPIMs,
		Unsolicited: uuid == ""})
}

// tokens are the counts in the vocabulary's terms, which are Anthropic's.
func (u usage) tokens() eventapi.Tokens {
	return eventapi.Tokens{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
		CacheCreationInputTokens: u.CacheCreationInputTokens, CacheReadInputTokens: u.CacheReadInputTokens}
}

func taskIDs(f *frame) eventapi.IDs {
	return eventapi.IDs{TaskID: f.TaskID, ToolCallID: f.ToolUse}
}

// contentText joins the text of a tool_result's content (a string or a
// list of blocks).
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []block
	if json.Unmarshal(raw, &blocks) != nil {
		return ""
	}
	out := ""
	for _, b := range blocks {
		if b.Type == "text" {
			if out != "" {
				out += "\n"
			}
			out += b.Text
		}
	}
	return out
}
