package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/manifest"
	"github.com/stratoscli/stratos/stratos-temporal/engine"
)

// EnvAgentQueue names the task queue of the run's agents; the worker that
// runs the code sets it for the proxy.
const EnvAgentQueue = "STRATOS_TEMPORAL_AGENT_QUEUE"

// routing is what the proxy reads of an execute to choose its queue: the
// harness its configuration names, by the host's precedence (createAgent
// fields, then overrides of configId#label, then of configId, then
// workflow.yaml).
type routing struct {
	Label     string                 `json:"label"`
	Workflow  agentproto.WorkflowRef `json:"workflow"`
	Overrides json.RawMessage        `json:"overrides"`
	Config    struct {
		ConfigID string `json:"configId"`
		Harness  string `json:"harness"`
	} `json:"config"`
}

// harness is the harness the execute names, "" when none of its layers
// names one (the host then chooses one by model, which any agent worker
// can do).
func (r routing) harness() string {
	if r.Config.Harness != "" {
		return r.Config.Harness
	}
	id := r.Config.ConfigID
	if id == "" {
		return ""
	}
	var over struct {
		Agents map[string]struct {
			Harness string `json:"harness"`
		} `json:"agents"`
	}
	_ = json.Unmarshal(r.Overrides, &over)
	if r.Label != "" {
		if h := over.Agents[id+"#"+r.Label].Harness; h != "" {
			return h
		}
	}
	if h := over.Agents[id].Harness; h != "" {
		return h
	}
	m, problems := manifest.Load(r.Workflow.Dir)
	if len(problems) > 0 {
		return ""
	}
	agents, _ := m.Sections["agents"].(map[string]any)
	entry, _ := agents[id].(map[string]any)
	h, _ := entry["harness"].(string)
	return h
}

// pollerCheck bounds the question whether any worker polls a queue.
const pollerCheck = 10 * time.Second

// queueFor is the task queue of an execute that names harness: the
// harness's own queue, which only workers able to run it poll. With no
// such worker it fails at once, as a local run does without the CLI.
func queueFor(ctx context.Context, c client.Client, agentQueue, harness string) (string, error) {
	if harness == "" {
		return agentQueue, nil
	}
	q := engine.HarnessQueue(agentQueue, harness)
	ctx, cancel := context.WithTimeout(ctx, pollerCheck)
	defer cancel()
	// A queue's pollers are seen on its partitions with a short delay: ask
	// a few times before saying nobody polls it.
	for try := 1; ; try++ {
		desc, err := c.DescribeTaskQueue(ctx, q, enumspb.TASK_QUEUE_TYPE_ACTIVITY)
		if err != nil {
			// Unknown: let the execute wait for a worker rather than fail it.
			return q, nil
		}
		if len(desc.GetPollers()) > 0 {
			return q, nil
		}
		if try == pollerTries {
			break
		}
		select {
		case <-ctx.Done():
			return q, nil
		case <-time.After(time.Second):
		}
	}
	return "", &agentproto.Error{Code: agentproto.CodeHarnessUnavailable, Message: fmt.Sprintf(
		"no stratos worker of task queue %s can run harness %q (none finds its CLI); start a worker where it is installed", agentQueue, harness)}
}

// pollerTries is how often an empty queue is asked about.
const pollerTries = 3
