// Package catalog is the adapters' and the host's client of the model
// catalog (`stratos-models`, run as a sibling tool with --json): the
// ordered candidates of an agent's model list, each with its harness's
// native configuration. Modules never import each other, so the
// tool's JSON is decoded here, once for every adapter.
package catalog

import (
	"context"
	"errors"
	"io"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/shared/toolcall"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
)

// Tool is the name of the catalog's binary.
const Tool = modelsapi.Tool

// Catalog answers what adapters and the selector ask the model catalog.
type Catalog interface {
	// Candidates returns the candidates of q, in try order.
	Candidates(ctx context.Context, q Query) ([]Candidate, error)
}

// Query asks for the candidates of a model list.
type Query struct {
	Models []string
	// Harness limits the candidates to one harness ("" = every harness, in
	// the model-based harness preference of docs/design/harness-selection.md).
	Harness string
	// Provider is the agent's explicit provider ("" = none).
	Provider string
	// Backend is the provider the harness is configured for when the agent
	// names none (used only with Harness).
	Backend string
	// Rules are the registered harnesses' selection rules, sent in place of
	// the catalog's packaged copy (nil: the packaged copy).
	Rules map[string]modelsapi.HarnessRules
}

// Candidate is one harness, model and provider combination to try.
type Candidate = modelsapi.Candidate

// Native is the harness's own configuration of a candidate.
type Native = modelsapi.Native

// Sibling runs the stratos-models tool beside this binary.
type Sibling struct {
	// Stderr receives the tool's diagnostics.
	Stderr io.Writer
}

var _ Catalog = Sibling{}

// Candidates runs `stratos-models candidates --json`.
func (s Sibling) Candidates(ctx context.Context, q Query) ([]Candidate, error) {
	args := []string{"candidates", "--json"}
	if q.Harness != "" {
		args = append(args, "--harness", q.Harness)
	}
	for _, m := range q.Models {
		args = append(args, "--model", m)
	}
	switch {
	case q.Provider != "":
		args = append(args, "--provider", q.Provider)
	case q.Backend != "" && q.Harness != "":
		args = append(args, "--backend", q.Harness+"="+q.Backend)
	}
	var in any
	if q.Rules != nil {
		args = append(args, "--harness-rules", "-")
		in = modelsapi.HarnessRulesInput{Harnesses: q.Rules}
	}
	var doc modelsapi.CandidatesResult
	if err := toolcall.Run(ctx, toolcall.Call{Tool: Tool, Args: args, Input: in, Stderr: s.Stderr}, &doc); err != nil {
		return nil, Classify(q.Harness, err)
	}
	return doc.Candidates, nil
}

// Classify gives a catalog failure the agent error it means: a model the
// harness cannot be asked for (a rejection the selector may pass over),
// an unusable configuration, or a catalog that could not run.
func Classify(harness string, err error) error {
	prefix := "model catalog"
	if harness != "" {
		prefix = "harness " + harness
	}
	var ce *clierr.Error
	if !errors.As(err, &ce) {
		return agentproto.Errorf(agentproto.CodeInitialization, "%s: model catalog: %v", prefix, err).Wrap(err)
	}
	switch ce.Code {
	case modelsapi.CodeNoMapping, modelsapi.CodeNoCandidates:
		return rejection.New(rejection.ModelUnavailable, "%s: %s", prefix, ce.Message).WithDetails(ce.Details).Wrap(err)
	case errcode.CodeToolNotFound, errcode.CodeToolFailed, errcode.CodeToolProtocolMismatch:
		return agentproto.Errorf(agentproto.CodeInitialization, "%s: %s", prefix, ce.Message).WithDetails(ce.Details).Wrap(err)
	}
	return agentproto.Errorf(agentproto.CodeConfiguration, "%s: %s", prefix, ce.Message).WithDetails(ce.Details).Wrap(err)
}
