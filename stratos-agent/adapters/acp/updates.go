package acp

import (
	"encoding/json"
	"strings"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// onUpdate maps one session/update to Stratos events. It runs on the
// connection's reading goroutine: author hooks run on goroutines of their
// own that the execute waits for.
func (s *session) onUpdate(u sessionUpdate) {
	if s.replayed() {
		return
	}
	t := s.running()
	if t == nil {
		s.log.Debug("acp: an update outside a prompt", "update", u.SessionUpdate)
		return
	}
	if s.agent.UpdateUsage != nil && len(u.Meta) > 0 {
		if tokens := s.agent.UpdateUsage(u.Meta); tokens != nil {
			t.addUsage(*tokens)
		}
	}
	switch u.SessionUpdate {
	case updateMessageChunk, updateThoughtChunk:
		if s.agent.Aside != nil && len(u.Meta) > 0 && s.agent.Aside(u.Meta) {
			s.log.Debug("acp: an aside of the agent's own", "text", textOf(u.Content))
			return
		}
		text := textOf(u.Content)
		if text == "" {
			return
		}
		if u.SessionUpdate == updateMessageChunk && t.echo(text) {
			s.log.Debug("acp: the agent's echo of a denied call", "text", text)
			return
		}
		kind := eventapi.DeltaThinking
		if u.SessionUpdate == updateMessageChunk {
			kind = eventapi.DeltaText
			t.addText(text)
		}
		s.emit(eventapi.IDs{}, &eventapi.MessageDelta{Kind: kind, Text: text})
	case updateToolCall, updateToolCallDone:
		s.toolStarted(t, u)
		if u.Status == toolCompleted || u.Status == toolFailed {
			s.toolCompleted(t, u)
		}
	case updatePlan:
		s.emit(eventapi.IDs{}, &eventapi.PlanUpdated{Entries: planOf(u.Entries)})
	}
}

// planOf is an ACP plan as the event carries it (every update sends the
// whole plan).
func planOf(entries []planEntry) []eventapi.PlanEntry {
	out := make([]eventapi.PlanEntry, 0, len(entries))
	for _, e := range entries {
		out = append(out, eventapi.PlanEntry{Content: e.Content, Priority: e.Priority, Status: e.Status})
	}
	return out
}

// textOf is a content block's text ("" for images and other kinds).
func textOf(raw json.RawMessage) string {
	var c struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &c) != nil || c.Type != "text" {
		return ""
	}
	return c.Text
}

// toolStarted emits the call's start once, however the agent first
// mentions it (a tool_call, a permission request or only its end).
func (s *session) toolStarted(t *turn, u sessionUpdate) *toolCall {
	c := t.tool(u.ToolCallID)
	t.mu.Lock()
	first := !c.started
	c.started = true
	if first {
		c.name = s.toolName(u)
	}
	t.mu.Unlock()
	if first {
		s.emit(eventapi.IDs{ToolCallID: u.ToolCallID}, &eventapi.ToolStarted{ToolName: c.name, Input: inputOf(u)})
	}
	return c
}

func (s *session) toolName(u sessionUpdate) string {
	if s.agent.MetaToolName != nil && len(u.Meta) > 0 {
		if name := s.agent.MetaToolName(u.Meta); name != "" {
			return name
		}
	}
	if s.agent.ToolName != nil {
		return s.agent.ToolName(u.ToolCallID, u.Kind)
	}
	if u.Kind != "" {
		return u.Kind
	}
	return "tool"
}

// inputOf is the call's input: its raw input when the agent sends it,
// else its title (what a person would be asked about).
func inputOf(u sessionUpdate) json.RawMessage {
	if len(u.RawInput) > 0 && string(u.RawInput) != "null" {
		return u.RawInput
	}
	b, _ := json.Marshal(map[string]string{"title": u.Title})
	return b
}

// outputOf is the call's output: its raw output, else the text of its
// content as a JSON string.
func outputOf(u sessionUpdate) json.RawMessage {
	if len(u.RawOutput) > 0 && string(u.RawOutput) != "null" {
		return u.RawOutput
	}
	var content []toolCallContent
	_ = json.Unmarshal(u.Content, &content)
	var parts []string
	for _, c := range content {
		if c.Content != nil && c.Content.Type == "text" {
			parts = append(parts, c.Content.Text)
		}
	}
	b, _ := json.Marshal(strings.Join(parts, "\n"))
	return b
}

// toolCompleted emits the call's end once and runs the author's
// afterToolCall.
func (s *session) toolCompleted(t *turn, u sessionUpdate) {
	c := t.tool(u.ToolCallID)
	t.mu.Lock()
	first, denied, reason, name := !c.done, c.denied, c.reason, c.name
	c.done = true
	t.mu.Unlock()
	if !first {
		return
	}
	failed := u.Status == toolFailed
	out := outputOf(u)
	if reason != "" {
		s.emit(eventapi.IDs{ToolCallID: u.ToolCallID}, &eventapi.ToolCompleted{ToolName: name, IsError: true, Status: "denied", Reason: reason})
		return
	}
	s.emit(eventapi.IDs{ToolCallID: u.ToolCallID}, &eventapi.ToolCompleted{ToolName: name, IsError: failed, Status: u.Status, Output: out})
	// An agent with hooks of its own ran the author's afterToolCall before
	// it reported the call (nativeHook).
	if denied || !adapter.HasToolHooks(s.hooks) || s.agent.NativeHooks != nil {
		return
	}
	call := adapter.ToolCall{ID: u.ToolCallID, Name: name, Input: inputOf(u)}
	var toolErr *agentproto.ToolError
	if failed {
		toolErr = &agentproto.ToolError{Message: string(out)}
	}
	t.hooks.Add(1)
	go func() {
		defer t.hooks.Done()
		res, err := s.hooks.AfterToolCall(t.ctx, call, out, toolErr)
		switch {
		case err != nil:
			t.Fail(err)
		case res.Action == agentproto.ActionBlock:
			// ACP reports a call after it ran and offers no way to change
			// what the model read: withholding it cannot be honoured, and
			// is not silently ignored either.
			t.Fail(agentproto.Errorf(agentproto.CodeConfiguration,
				"agent %q: harness %s cannot withhold a tool's output from the model (afterToolCall returned block): ACP reports a call only after the model has its result",
				s.spec.Name, s.agent.Harness))
		}
	}()
}
