package opencode

import (
	"sync"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// observer maps the session's events to Stratos events, in OpenCode's
// order: from the stream, and at a turn's end from the synchronous
// response (replay), whichever delivers a message or part first. It is
// idempotent per message and part, so the stream's late copies of what a
// replay already reported are dropped (see replay.go).
type observer struct {
	emit func(adapter.Event)

	mu        sync.Mutex
	sessionID string
	models    map[string]bool   // assistant messages announced
	partTypes map[string]string // part ID → type, for deltas
	tools     map[string]string // call ID → last status reported
	finished  map[string]bool   // step-finish and compaction parts reported
	streamed  map[string]int    // text and reasoning part ID → bytes of deltas reported
	complete  map[string]bool   // text and reasoning parts reported whole: later deltas are copies
	usage     tokens            // of the running turn
	// provider and model of the latest assistant message (OpenCode's IDs,
	// which are Models.dev's), reported with the turn's usage.
	provider, model string
}

func newObserver(emit func(adapter.Event)) *observer {
	return &observer{emit: emit, models: map[string]bool{}, partTypes: map[string]string{}, tools: map[string]string{},
		finished: map[string]bool{}, streamed: map[string]int{}, complete: map[string]bool{}}
}

// hiddenTools are OpenCode's structured-output delivery and its
// placeholder for a call of an unknown tool: neither is a tool call of
// the agent.
var hiddenTools = map[string]bool{"StructuredOutput": true, "invalid": true}

func (o *observer) event(ids eventapi.IDs, d eventapi.Details) {
	o.mu.Lock()
	ids.NativeSessionID = o.sessionID
	o.mu.Unlock()
	o.emit(adapter.NewEvent(ids, d))
}

func (o *observer) observe(ev event, p *props) {
	o.mu.Lock()
	if o.sessionID == "" {
		o.sessionID = p.sessionOf()
	}
	o.mu.Unlock()
	switch ev.Type {
	case "message.updated":
		o.messageUpdated(p.Info)
	case "message.part.updated":
		o.partUpdated(p.Part)
	case "message.part.delta":
		if p.Field != "text" || p.Delta == "" {
			return
		}
		o.mu.Lock()
		late := o.complete[p.PartID]
		if !late {
			o.streamed[p.PartID] += len(p.Delta)
		}
		kind := deltaKind(o.partTypes[p.PartID])
		o.mu.Unlock()
		if !late {
			o.event(eventapi.IDs{MessageID: p.MessageID}, &eventapi.MessageDelta{Kind: kind, Text: p.Delta})
		}
	case "session.status":
		o.status(p)
	case "session.compacted":
		o.event(eventapi.IDs{}, &eventapi.CompactionCompleted{})
	}
}

func (o *observer) messageUpdated(info *messageInfo) {
	if info == nil || info.Role != "assistant" {
		return
	}
	o.mu.Lock()
	seen := o.models[info.ID]
	o.models[info.ID] = true
	if info.ProviderID != "" {
		o.provider, o.model = info.ProviderID, info.ModelID
	}
	o.mu.Unlock()
	if !seen {
		o.event(eventapi.IDs{MessageID: info.ID}, &eventapi.ModelStarted{Model: info.ProviderID + "/" + info.ModelID})
	}
}

func (o *observer) partUpdated(pt *part) {
	if pt == nil {
		return
	}
	o.mu.Lock()
	o.partTypes[pt.ID] = pt.Type
	o.mu.Unlock()
	switch pt.Type {
	case "tool":
		o.tool(pt)
	case "step-finish":
		var t tokens
		if pt.Tokens != nil {
			t = *pt.Tokens
		}
		if !o.firstFinish(pt.ID, func() { o.usage = o.usage.plus(t) }) {
			return
		}
		used := t.tokens()
		o.event(eventapi.IDs{MessageID: pt.MessageID}, &eventapi.ModelCompleted{StopReason: pt.Reason, Usage: &used})
	case "compaction":
		if o.firstFinish(pt.ID, func() {}) {
			o.event(eventapi.IDs{}, &eventapi.CompactionStarted{})
		}
	}
}

// firstFinish reports whether part id is seen for the first time, and
// then runs record under the lock.
func (o *observer) firstFinish(id string, record func()) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.finished[id] {
		return false
	}
	o.finished[id] = true
	record()
	return true
}

// completeText reports the rest of a text or reasoning part the stream
// has not delivered as deltas (all of it when none arrived), from the
// part's whole text; deltas of that part arriving later are copies and
// dropped.
func (o *observer) completeText(pt *part) {
	o.mu.Lock()
	if o.complete[pt.ID] {
		o.mu.Unlock()
		return
	}
	o.complete[pt.ID] = true
	o.partTypes[pt.ID] = pt.Type
	sent := o.streamed[pt.ID]
	o.mu.Unlock()
	if sent < len(pt.Text) {
		o.event(eventapi.IDs{MessageID: pt.MessageID}, &eventapi.MessageDelta{Kind: deltaKind(pt.Type), Text: pt.Text[sent:]})
	}
}

// seen reports whether the assistant message id was announced.
func (o *observer) seen(id string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.models[id]
}

func deltaKind(partType string) string {
	if partType == "reasoning" {
		return eventapi.DeltaThinking
	}
	return eventapi.DeltaText
}

// tool reports a tool part once it runs (tool.started) and once it
// completed or failed (tool.completed).
func (o *observer) tool(pt *part) {
	if pt.State == nil || hiddenTools[pt.Tool] {
		return
	}
	st := pt.State.Status
	o.mu.Lock()
	prev := o.tools[pt.CallID]
	started := prev == "" || prev == "pending"
	ended := prev == "completed" || prev == "error"
	if st != "pending" && !ended { // a late copy never takes a call back
		o.tools[pt.CallID] = st
	}
	o.mu.Unlock()
	ids := eventapi.IDs{ToolCallID: pt.CallID}
	switch st {
	case "running":
		if started {
			o.event(ids, &eventapi.ToolStarted{ToolName: pt.Tool, Input: adapter.JSON(pt.State.Input)})
		}
	case "completed", "error":
		if ended {
			return
		}
		if started {
			o.event(ids, &eventapi.ToolStarted{ToolName: pt.Tool, Input: adapter.JSON(pt.State.Input)})
		}
		d := &eventapi.ToolCompleted{ToolName: pt.Tool, IsError: st == "error", Status: st}
		if st == "error" {
			d.Error = &eventapi.Error{Message: pt.State.Error}
		} else {
			d.Output = adapter.JSONOf(pt.State.Output)
		}
		o.event(ids, d)
	}
}

// status reports retries.
func (o *observer) status(p *props) {
	if p.Status != nil && p.Status.Type == "retry" {
		o.event(eventapi.IDs{}, &eventapi.ModelRetry{Message: p.Status.Message, Attempt: p.Status.Attempt})
	}
}

// endTurn reports the turn's usage (the sum of its steps), when it had
// any, and starts the next turn's sum. The turn calls it before its
// execute returns: the host attributes events to the invocation running
// when they arrive.
func (o *observer) endTurn() {
	o.mu.Lock()
	u, provider, model := o.usage, o.provider, o.model
	o.usage = tokens{}
	o.mu.Unlock()
	if u == (tokens{}) {
		return
	}
	d := &eventapi.Usage{Tokens: u.tokens()}
	if provider != "" {
		d.Provider, d.Model = provider, model
	}
	o.event(eventapi.IDs{}, d)
}
