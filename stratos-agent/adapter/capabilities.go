package adapter

import (
	"slices"
	"strings"

	"github.com/stratoscli/stratos/shared/agentproto"
)

// StructuredOutput is how a harness delivers a value for an output schema.
type StructuredOutput string

const (
	// StructuredOutputTool: the harness offers the model a delivery tool
	// whose input is the value, validates it and lets the model retry a
	// rejected attempt within the same turn (Claude Code's StructuredOutput).
	StructuredOutputTool StructuredOutput = "tool"
	// StructuredOutputSchema: the harness constrains the final message to
	// the schema; Stratos validates it (Codex's outputSchema).
	StructuredOutputSchema StructuredOutput = "schema"
	// StructuredOutputScripted: the value is scripted (the test harness).
	StructuredOutputScripted StructuredOutput = "scripted"
)

// RetriesNatively reports whether the harness itself gives the model
// another try at a value that fails the schema (the delivery tool does);
// for the others the agent host sends the validation errors back
// (structuredOutputRetries).
func (s StructuredOutput) RetriesNatively() bool {
	return s == StructuredOutputTool
}

// Capabilities are what a harness adapter supports. The host and the
// conformance suite read them; a behaviour a harness lacks is a documented
// limit of that harness, not a silent difference.
type Capabilities struct {
	// Efforts are the reasoning efforts the harness accepts; any other is
	// a configuration error.
	Efforts []string
	// ExecutesTools: the harness runs real tools (shell commands) itself;
	// false for a harness that simulates them.
	ExecutesTools bool
	// HooksModifyArguments: beforeToolCall can replace a call's arguments.
	HooksModifyArguments bool
	// AfterHookReplacesFailure: afterToolCall "block" on a failed call
	// replaces the error the model reads; false when the harness only lets
	// the hook add to it.
	AfterHookReplacesFailure bool
	// AfterHookKeepsFailure, when set, says why afterToolCall "block" on
	// a failed call cannot change the error the model reads at all: the
	// hook still sees the failure, and a block fails the execute rather
	// than be ignored.
	AfterHookKeepsFailure string
	// StructuredOutput is the harness's delivery mechanism for outputSchema.
	StructuredOutput StructuredOutput
	// CancelsBackgroundWork: Cancel also stops work that outlives a turn
	// (background shells, subagents), including when no execute runs.
	CancelsBackgroundWork bool
	// BackgroundWork: the harness can start work that outlives a turn.
	BackgroundWork bool
	// SelectsModels: the adapter refuses an unavailable model with a
	// rejection (rejection.ModelUnavailable) the selector can act on.
	SelectsModels bool
	// ChecksAuthentication: Initialize refuses a harness without usable
	// credentials with rejection.Authentication.
	ChecksAuthentication bool
	// ReportsUsage: the adapter emits EventUsage per turn.
	ReportsUsage bool
	// ResumesSessions: given Spec.Resume, the adapter continues an
	// earlier execution's session (its native session ID, and what it
	// kept in Spec.StateDir), so a resumed run's agent keeps its
	// conversation.
	ResumesSessions bool
	// ToolHooksUnsupported, when set, says why the harness cannot run the
	// author's beforeToolCall and afterToolCall hooks around its tool
	// calls; its factory refuses an agent that has them with a
	// configuration error saying so. "" (every built-in CLI harness
	// until ACP): they run around every call.
	ToolHooksUnsupported string
}

// CheckEffort returns a configuration error when spec asks for an effort
// the harness does not accept.
func (c Capabilities) CheckEffort(harness string, spec Spec) error {
	if spec.Effort == "" || slices.Contains(c.Efforts, spec.Effort) {
		return nil
	}
	return agentproto.Errorf(agentproto.CodeConfiguration, "agent %q: effort %q is not supported by harness %s (supported: %s)",
		spec.Name, spec.Effort, harness, strings.Join(c.Efforts, ", ")).WithDetails(map[string]any{"effort": spec.Effort, "harness": harness})
}
