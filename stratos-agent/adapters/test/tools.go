package test

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/stratoscli/stratos/shared/agentproto"
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
	rec := map[string]any{"id": id, "name": c.Tool}
	ids := map[string]string{"toolCallId": id}
	s.emit(adapter.Event{Type: "tool.started", IDs: ids, Details: map[string]any{"toolName": c.Tool, "input": decode(input)}})
	done := func() (map[string]any, error) {
		rec["input"] = decode(call.Input)
		details := map[string]any{"toolName": c.Tool}
		for k, v := range rec {
			if k != "id" && k != "name" {
				details[k] = v
			}
		}
		s.emit(adapter.Event{Type: "tool.completed", IDs: ids, Details: details})
		return rec, nil
	}

	if s.removed(c.Tool) {
		rec["status"] = statusRemoved
		rec["output"] = "tool " + c.Tool + " is not available"
		return done()
	}
	before, err := s.hooks.BeforeToolCall(ctx, call)
	if err != nil {
		return nil, err
	}
	switch before.Action {
	case agentproto.ActionDeny:
		rec["status"], rec["reason"], rec["output"] = statusDenied, before.Reason, before.Reason
		return done()
	case agentproto.ActionModify:
		call.Input = before.Arguments
		rec["modified"] = true
	}
	var output json.RawMessage
	var toolErr *agentproto.ToolError
	if c.Error != "" {
		toolErr = &agentproto.ToolError{Message: c.Error}
		rec["status"], rec["error"] = statusFailed, c.Error
	} else {
		output = c.Output
		if len(output) == 0 {
			output = json.RawMessage("null")
		}
		rec["status"], rec["output"] = statusCompleted, decode(output)
	}
	after, err := s.hooks.AfterToolCall(ctx, call, output, toolErr)
	if err != nil {
		return nil, err
	}
	if after.Action == agentproto.ActionBlock {
		rec["status"], rec["reason"], rec["output"] = statusBlocked, after.Reason, after.Reason
		delete(rec, "error")
	}
	return done()
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
