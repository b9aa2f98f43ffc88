package host

import (
	"context"
	"errors"
	"path/filepath"
	"sync"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/decision"
)

// Why a decision's context ended early.
var (
	errDecisionCancelled = errors.New("the decision was cancelled")
	errExecutionClosed   = errors.New("the decision's workflow execution ended")
)

// decisions are the host's running decisions, so that decision.cancel and
// the end of their execution can stop them. A cancel may overtake its ask:
// it is remembered until the ask arrives.
type decisions struct {
	mu        sync.Mutex
	running   map[string]runningDecision
	cancelled map[string]bool
}

type runningDecision struct {
	executionID string
	cancel      context.CancelCauseFunc
}

// start registers a decision; it returns false when a cancel overtook it.
func (d *decisions) start(id, executionID string, cancel context.CancelCauseFunc) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.cancelled[id] {
		delete(d.cancelled, id)
		return false
	}
	if d.running == nil {
		d.running = map[string]runningDecision{}
	}
	d.running[id] = runningDecision{executionID: executionID, cancel: cancel}
	return true
}

func (d *decisions) end(id string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.running, id)
}

// cancelOne cancels decision id, or remembers the cancel for its ask.
func (d *decisions) cancelOne(id string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if r, ok := d.running[id]; ok {
		r.cancel(errDecisionCancelled)
		return
	}
	if d.cancelled == nil {
		d.cancelled = map[string]bool{}
	}
	d.cancelled[id] = true
}

// cancelMatching cancels the running decisions of which match approves.
func (d *decisions) cancelMatching(match func(executionID string) bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, r := range d.running {
		if match(r.executionID) {
			r.cancel(errExecutionClosed)
		}
	}
}

// decisionRejection is the error of a decision refused by the decisions'
// admission pool.
func decisionRejection(maxConcurrent, maxOutstanding, running, queued int) error {
	return agentproto.Errorf(agentproto.CodeDecisionAdmission,
		"decision rejected: %d decision requests are already running or waiting in this execution (decisions.maxOutstanding is %d; %d running, %d waiting); wait for some to finish or raise the limit in ~/.stratos/settings.json",
		running+queued, maxOutstanding, running, queued).
		WithDetails(map[string]any{"maxOutstanding": maxOutstanding, "maxConcurrent": maxConcurrent, "running": running, "queued": queued})
}

// decide serves decision.ask: the configuration's layers as named in
// errors, the decision's events recorded with its execution and ID.
func (h *Host) decide(ctx context.Context, p agentproto.DecisionParams) (*agentproto.DecisionResult, error) {
	if p.DecisionID == "" || p.ExecutionID == "" {
		return nil, agentproto.Errorf(agentproto.CodeProtocol, "decision.ask: decisionId and executionId are required")
	}
	h.mu.Lock()
	closed := h.closedExecs[p.ExecutionID]
	h.mu.Unlock()
	if closed {
		return nil, agentproto.Errorf(agentproto.CodeContextClosed, "decision %s cannot be asked: its workflow execution has ended", p.DecisionID)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	if !h.decisions.start(p.DecisionID, p.ExecutionID, cancel) {
		cancel(errDecisionCancelled)
	}
	defer h.decisions.end(p.DecisionID)
	req := decision.Request{Question: p.Question, Layers: []decision.Layer{
		{Name: filepath.Join(p.Workflow.Dir, "workflow.yaml") + " decision", Raw: p.Config.YAML},
		{Name: "overrides.decision", Raw: p.Config.Overrides},
		{Name: "decision() options", Raw: p.Config.Call},
	}}
	emit := func(d eventapi.Details) {
		e := eventapi.New(d)
		e.ExecutionID, e.IDs.DecisionID, e.Phase = p.ExecutionID, p.DecisionID, p.Phase
		h.record(e)
	}
	if err := refuseRealDecision(h.testCase, req, p); err != nil {
		emit(&eventapi.DecisionCompleted{Status: eventapi.StatusFailed, Error: eventError(err)})
		return nil, decisionError(ctx, p.DecisionID, err)
	}
	res, err := h.asker.Decide(ctx, req, emit)
	if err != nil {
		return nil, decisionError(ctx, p.DecisionID, err)
	}
	return res, nil
}

// decisionError is err as the SDK gets it: a cancelled decision is
// "cancelled", every error names the decision.
func decisionError(ctx context.Context, id string, err error) error {
	if cause := context.Cause(ctx); cause != nil && errors.Is(err, cause) {
		err = agentproto.Errorf(agentproto.CodeCancelled, "decision %s was cancelled: %v", id, cause).Wrap(err)
	}
	var e *agentproto.Error
	if !errors.As(err, &e) {
		return agentproto.Errorf(agentproto.CodeInternal, "decision %s: %v", id, err).WithDetails(map[string]any{"decisionId": id}).Wrap(err)
	}
	if e.Details == nil {
		e.Details = map[string]any{}
	}
	e.Details["decisionId"] = id
	return err
}
