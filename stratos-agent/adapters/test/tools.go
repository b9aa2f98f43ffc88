package test

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// Tool call statuses, as replies and events show them.
const (
	statusCompleted = "completed" // ran, output passed to the model
	statusFailed    = "failed"    // ran and failed (scripted error)
	statusDenied    = "denied"    // beforeToolCall denied it; it never ran
	statusBlocked   = "blocked"   // ran, but afterToolCall withheld the output
	statusRemoved   = "removed"   // allowedTools/disallowedTools removed the tool
)

// tool simulates one tool call through the author's hooks, as a real
// harness would: beforeToolCall may deny or modify it, afterToolCall may
// block its output. It returns the record that reply templates see (name,
// status, input, output, error, reason). A hook error fails the invocation.
func (s *session) tool(ctx context.Context, id string, c ToolCall) (map[string]any, error) {
	input := c.Input
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	call := adapter.ToolCall{ID: id, Name: c.Tool, Input: input}
	ids := eventapi.IDs{ToolCallID: id}
	s.emit(adapter.NewEvent(ids, &eventapi.ToolStarted{ToolName: c.Tool, Input: adapter.JSON(input)}))
	d := &eventapi.ToolCompleted{ToolName: c.Tool}
	done := func() (map[string]any, error) {
		d.Input = adapter.JSON(call.Input)
		s.emit(adapter.NewEvent(ids, d))
		return toolRecord(id, d), nil
	}

	if s.removed(c.Tool) {
		d.Status, d.Output = statusRemoved, adapter.JSONOf("tool "+c.Tool+" is not available")
		return done()
	}
	before, err := s.hooks.BeforeToolCall(ctx, call)
	if err != nil {
		return nil, err
	}
	switch before.Action {
	case agentproto.ActionDeny:
		d.Status, d.Reason, d.Output = statusDenied, before.Reason, adapter.JSONOf(before.Reason)
		return done()
	case agentproto.ActionModify:
		call.Input = before.Arguments
		d.Modified = true
	}
	var output json.RawMessage
	var toolErr *agentproto.ToolError
	if c.Error != "" {
		toolErr = &agentproto.ToolError{Message: c.Error}
		d.Status, d.IsError, d.Error = statusFailed, true, &eventapi.Error{Message: c.Error}
	} else {
		output = c.Output
		if len(output) == 0 {
			output = json.RawMessage("null")
		}
		d.Status, d.Output = statusCompleted, adapter.JSON(output)
	}
	after, err := s.hooks.AfterToolCall(ctx, call, output, toolErr)
	if err != nil {
		return nil, err
	}
	if after.Action == agentproto.ActionBlock {
		d.Status, d.Reason, d.Output = statusBlocked, after.Reason, adapter.JSONOf(after.Reason)
		d.IsError, d.Error = false, nil
	}
	return done()
}

// toolRecord is the call as reply templates see it: id, name, status,
// input, output, and error, reason and modified when set.
func toolRecord(id string, d *eventapi.ToolCompleted) map[string]any {
	rec := map[string]any{"id": id, "name": d.ToolName, "status": d.Status, "input": decode(d.Input)}
	if d.Output != nil {
		rec["output"] = decode(d.Output)
	}
	if d.Error != nil {
		rec["error"] = d.Error.Message
	}
	if d.Reason != "" {
		rec["reason"] = d.Reason
	}
	if d.Modified {
		rec["modified"] = true
	}
	return rec
}

// removed reports whether the agent's tool selection removes name: the test
// harness has every tool a script names, so allowedTools keeps only the
// listed ones and disallowedTools removes the listed ones.
func (s *session) removed(name string) bool {
	sel := s.spec.Tools
	if slices.Contains(sel.DisallowedTools, name) {
		return true
	}
	return sel.AllowedTools != nil && !slices.Contains(sel.AllowedTools, name)
}
