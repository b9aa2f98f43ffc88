package proxy

import (
	"context"
	"encoding/json"
	"time"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/admission"
)

// admitter bounds the run's remote executes as the local host bounds its
// own (agents.maxConcurrent and maxOutstanding of the settings where the
// run's code runs, which the host reports when it initializes): an execute
// the proxy sends to Temporal never reaches that host, so without this a
// run on Temporal had no limit of its own but each worker's --max-agents,
// and maxOutstanding none at all.
type admitter struct {
	pool *admission.Pool
}

func newAdmitter(s agentproto.Settings) *admitter {
	if s.MaxConcurrent < 1 || s.MaxOutstanding < 1 {
		return nil // a host that reports no limits (an older one): none
	}
	return &admitter{pool: admission.New(s.MaxConcurrent, s.MaxOutstanding)}
}

// admit takes a slot for the execute, waiting in line (said by an
// agent.admission.queued event in the run's record), or fails with the
// host's admission error; release gives it back.
func (a *admitter) admit(ctx context.Context, ref executeRef, t *tail) (release func(), err error) {
	if a == nil {
		return func() {}, nil
	}
	queued := func() {
		e := eventapi.New(&eventapi.AgentAdmissionQueued{})
		e.Timestamp = time.Now().UTC().Format(time.RFC3339Nano)
		e.ExecutionID, e.AgentID = ref.ExecutionID, ref.AgentID
		if line, err := json.Marshal(e); err == nil {
			t.appendEvents([]json.RawMessage{line})
		}
	}
	if err := a.pool.Acquire(ctx, queued); err != nil {
		return nil, err
	}
	return a.pool.Release, nil
}
