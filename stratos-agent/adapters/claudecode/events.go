package claudecode

import (
	"encoding/json"
	"sort"
	"sync"
	"time"

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

func (o *observer) event(typ string, ids map[string]string, details map[string]any) {
	o.mu.Lock()
	if o.sessionID != "" {
		if ids == nil {
			ids = map[string]string{}
		}
		ids["nativeSessionId"] = o.sessionID
	}
	o.mu.Unlock()
	o.emit(adapter.Event{Type: typ, Time: time.Now(), IDs: ids, Details: details})
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

func withParent(f *frame, ids map[string]string) map[string]string {
	if f.ParentToolUseID != nil && *f.ParentToolUseID != "" {
		ids["parentToolCallId"] = *f.ParentToolUseID
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
		d := map[string]any{"model": ev.Message.Model}
		if f.TTFTMs != nil {
			d["ttftMs"] = *f.TTFTMs
		}
		o.event(adapter.EventModelStarted, withParent(f, map[string]string{"messageId": id}), d)
	case "content_block_delta":
		switch ev.Delta.Type {
		case "text_delta":
			o.event(adapter.EventMessageDelta, withParent(f, map[string]string{"messageId": id}),
				map[string]any{"kind": "text", "text": ev.Delta.Text, "index": ev.Index})
		case "thinking_delta":
			o.event(adapter.EventMessageDelta, withParent(f, map[string]string{"messageId": id}),
				map[string]any{"kind": "thinking", "text": ev.Delta.Thinking, "index": ev.Index})
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
		o.event(adapter.EventModelCompleted, withParent(f, map[string]string{"messageId": id}), map[string]any{
			"model": m.model, "stopReason": m.stopReason, "usage": usageDetails(m.usage)})
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
		o.event(adapter.EventToolStarted, withParent(f, map[string]string{"toolCallId": b.ID}),
			map[string]any{"toolName": b.Name, "input": decodeJSON(b.Input)})
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
		d := map[string]any{"toolName": name, "isError": b.IsError}
		text := contentText(b.Content)
		if b.IsError {
			d["error"] = map[string]any{"message": text}
		} else if len(f.ToolUseResult) > 0 {
			d["output"] = decodeJSON(f.ToolUseResult)
		} else {
			d["output"] = text
		}
		o.event(adapter.EventToolCompleted, withParent(f, map[string]string{"toolCallId": b.ToolUseID}), d)
	}
}

func (o *observer) system(f *frame) {
	var m map[string]any
	if json.Unmarshal(f.raw, &m) != nil {
		return
	}
	switch f.Subtype {
	case "init":
		o.mu.Lock()
		o.sessionID = f.SessionID
		o.mu.Unlock()
	case "status":
		if f.Status != nil && *f.Status == "compacting" {
			o.event(adapter.EventCompactionStarted, nil, nil)
		}
	case "compact_boundary":
		o.event(adapter.EventCompactionCompleted, nil, pick(m, "compact_metadata"))
	case "task_started":
		o.mu.Lock()
		o.tasks[f.TaskID] = backgroundTask{TaskID: f.TaskID}
		o.mu.Unlock()
		o.event(adapter.EventBackgroundStarted, taskIDs(f), pick(m, "task_type", "description", "is_backgrounded"))
	case "task_updated", "task_progress":
		o.event(adapter.EventBackgroundActivity, taskIDs(f), pick(m, "patch", "status", "description", "summary"))
	case "task_notification":
		o.mu.Lock()
		delete(o.tasks, f.TaskID)
		o.mu.Unlock()
		o.event(adapter.EventBackgroundCompleted, taskIDs(f), pick(m, "status", "summary"))
	case "background_tasks_changed":
		o.mu.Lock()
		o.tasks = map[string]backgroundTask{}
		for _, t := range f.Tasks {
			o.tasks[t.TaskID] = t
		}
		o.mu.Unlock()
	case "api_retry":
		o.event(adapter.EventModelRetry, nil, pick(m, "attempt", "max_retries", "retry_delay_ms", "error_status"))
	}
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
	ids := map[string]string{}
	if uuid != "" {
		ids["promptId"] = uuid
	}
	d := usageDetails(r.Usage)
	d["costUsd"] = cost
	d["numTurns"] = r.NumTurns
	d["durationMs"] = r.DurationMs
	d["durationApiMs"] = r.DurationAPIMs
	d["unsolicited"] = uuid == ""
	if o.provider != "" {
		d["provider"] = o.provider
	}
	if model != "" {
		d["model"] = model
	}
	o.event(adapter.EventUsage, ids, d)
}

func usageDetails(u usage) map[string]any {
	return map[string]any{"inputTokens": u.InputTokens, "outputTokens": u.OutputTokens,
		"cacheCreationInputTokens": u.CacheCreationInputTokens, "cacheReadInputTokens": u.CacheReadInputTokens}
}

func taskIDs(f *frame) map[string]string {
	ids := map[string]string{"taskId": f.TaskID}
	if f.ToolUse != "" {
		ids["toolCallId"] = f.ToolUse
	}
	return ids
}

// pick copies the named fields, renamed to camelCase.
func pick(m map[string]any, keys ...string) map[string]any {
	out := map[string]any{}
	for _, k := range keys {
		if v, ok := m[k]; ok && v != nil {
			out[camel(k)] = v
		}
	}
	return out
}

func camel(s string) string {
	b := make([]byte, 0, len(s))
	up := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' {
			up = true
			continue
		}
		if up && c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		up = false
		b = append(b, c)
	}
	return string(b)
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
