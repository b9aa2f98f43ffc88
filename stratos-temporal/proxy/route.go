package proxy

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

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
// can do). yaml answers for the workflow.yaml layer.
func (r routing) harness(yaml func(dir, configID string) string) string {
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
	return yaml(r.Workflow.Dir, id)
}

// yamlHarnesses are the harnesses the agents of the workflow.yaml in each
// directory name, read once per workflow for the run: the proxy routes
// every execute, and the run's workflows do not change under it.
type yamlHarnesses struct {
	mu   sync.Mutex
	dirs map[string]map[string]string // dir → configId → harness
}

// harness is the harness workflow.yaml in dir names for the agent
// configID ("" when it names none or cannot be read: the host reports a
// broken file when the agent is created).
func (y *yamlHarnesses) harness(dir, configID string) string {
	y.mu.Lock()
	defer y.mu.Unlock()
	agents, ok := y.dirs[dir]
	if !ok {
		agents = readHarnesses(dir)
		if y.dirs == nil {
			y.dirs = map[string]map[string]string{}
		}
		y.dirs[dir] = agents
	}
	return agents[configID]
}

func readHarnesses(dir string) map[string]string {
	m, problems := manifest.Load(dir)
	if len(problems) > 0 {
		return nil
	}
	sections, _ := m.Sections["agents"].(map[string]any)
	agents := map[string]string{}
	for id, v := range sections {
		entry, _ := v.(map[string]any)
		if h, _ := entry["harness"].(string); h != "" {
			agents[id] = h
		}
	}
	return agents
}

// pollerCheck bounds the question whether any worker polls a queue.
const pollerCheck = 10 * time.Second

// queueFor is the task queue of an execute that names harness: the
// harness's own queue, which only workers able to run it poll, and whether
// a poller of it was seen. The server reports the pollers of one of a
// queue's partitions only, so not seeing one proves nothing: the workflow
// then gives the execute a bounded wait for a worker and fails it with
// harness_unavailable when none takes it. A queue seen polled is
// remembered for the run.
func (p *Proxy) queueFor(ctx context.Context, harness string) (queue string, seen bool) {
	if harness == "" {
		return p.run.AgentQueue, true
	}
	q := engine.HarnessQueue(p.run.AgentQueue, harness)
	p.mu.Lock()
	known := p.polled[q]
	p.mu.Unlock()
	if known {
		return q, true
	}
	ctx, cancel := context.WithTimeout(ctx, pollerCheck)
	defer cancel()
	desc, err := p.client.DescribeTaskQueue(ctx, q, enumspb.TASK_QUEUE_TYPE_ACTIVITY)
	if err != nil || len(desc.GetPollers()) == 0 {
		return q, false
	}
	p.mu.Lock()
	p.polled[q] = true
	p.mu.Unlock()
	return q, true
}
