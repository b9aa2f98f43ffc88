package host

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/jsonvalidate"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// attempt is one structured reply that failed, as StructuredOutputError's
// details.attempts keeps it.
type attempt struct {
	Attempt int                  `json:"attempt"`
	Message string               `json:"message"`
	Issues  []jsonvalidate.Issue `json:"issues,omitempty"`
}

// structured turns the reply of a call with an output schema into its
// result. A value that fails the schema (or a reply without one) is sent
// back with its validation errors, in the same conversation, up to the
// agent's structuredOutputRetries times when its harness has no native
// retry of its own; the final failure keeps every attempt's issues.
func (s *session) structured(ctx context.Context, pr *prepared, out adapter.Result, err error) (*agentproto.ExecuteResult, error) {
	retries := s.h.feedbackRetries(pr)
	var failed []attempt
	for n := 1; ; n++ {
		if err == nil {
			if err = checkOutput(pr.schema, out.Value, s.name); err == nil {
				return &agentproto.ExecuteResult{Value: out.Value}, nil
			}
		}
		var ae *agentproto.Error
		if !errors.As(err, &ae) || ae.Code != agentproto.CodeStructuredOutput || ctx.Err() != nil {
			return nil, err
		}
		failed = append(failed, attempt{Attempt: n, Message: ae.Message, Issues: issuesOf(ae)})
		if n > retries {
			return nil, withAttempts(ae, failed)
		}
		s.event(&eventapi.AgentStructuredOutputRetry{Attempt: n + 1, Of: retries + 1, Issues: eventIssues(failed[n-1].Issues)})
		out, err = pr.adapter.Execute(ctx, feedbackPrompt(failed[n-1]))
	}
}

// feedbackRetries is how many times a failed structured output is sent
// back: the agent's structuredOutputRetries, or none on a harness that
// retries natively (the model already had its tries inside the turn).
func (h *Host) feedbackRetries(pr *prepared) int {
	if pr.config.StructuredOutputRetries == nil {
		return 0
	}
	if reg, ok := h.harnesses[pr.selection.harness()]; ok && reg.Capabilities.StructuredOutput.RetriesNatively() {
		return 0
	}
	return *pr.config.StructuredOutputRetries
}

// issuesOf returns the field issues of a structured-output error (none
// when the reply had no JSON value at all).
func issuesOf(e *agentproto.Error) []jsonvalidate.Issue {
	issues, _ := e.Details["issues"].([]jsonvalidate.Issue)
	return issues
}

// eventIssues are issues as the retry event carries them (never null).
func eventIssues(issues []jsonvalidate.Issue) []eventapi.Issue {
	out := make([]eventapi.Issue, len(issues))
	for i, is := range issues {
		out[i] = eventapi.Issue{Path: is.Path, Message: is.Message}
	}
	return out
}

// feedbackPrompt is the user prompt that sends a failed attempt back.
func feedbackPrompt(a attempt) string {
	var b strings.Builder
	b.WriteString("The structured output you returned does not match the required output schema:\n")
	if len(a.Issues) == 0 {
		fmt.Fprintf(&b, "- %s\n", a.Message)
	}
	for _, i := range a.Issues {
		path := i.Path
		if path == "" {
			path = "(the value itself)"
		}
		fmt.Fprintf(&b, "- %s: %s\n", path, i.Message)
	}
	b.WriteString("Reply again with the complete value, corrected so that it matches the schema.")
	return b.String()
}

// withAttempts is the final error: the last attempt's, with every
// attempt in details.attempts, and saying how many there were.
func withAttempts(last *agentproto.Error, failed []attempt) *agentproto.Error {
	details := map[string]any{}
	for k, v := range last.Details {
		details[k] = v
	}
	details["attempts"] = failed
	msg := last.Message
	if len(failed) > 1 {
		msg = fmt.Sprintf("%s (after %d attempts: the validation errors were sent back %d times)", msg, len(failed), len(failed)-1)
	}
	return agentproto.Errorf(last.Code, "%s", msg).WithDetails(details).Wrap(last.Err)
}
