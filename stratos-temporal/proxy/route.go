package proxy

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/manifest"
	"github.com/stratoscli/stratos/shared/ollama"
	"github.com/stratoscli/stratos/stratos-temporal/engine"
)

// EnvAgentQueue names the task queue of the run's agents; the worker that
// runs the code sets it for the proxy.
const EnvAgentQueue = "STRATOS_TEMPORAL_AGENT_QUEUE"

// routing is what the proxy reads of an execute to choose its queue: the
// harness and the provider its configuration names, each by the host's
// precedence (createAgent fields, then overrides of configId#label, then
// of configId, then workflow.yaml).
type routing struct {
	Label     string                 `json:"label"`
	Workflow  agentproto.WorkflowRef `json:"workflow"`
	Overrides json.RawMessage        `json:"overrides"`
	Config    agentTarget            `json:"config"`
}

// agentTarget is the harness and provider a layer of an agent's
// configuration names ("": it names none).
type agentTarget struct {
	ConfigID string               `json:"configId"`
	Harness  string               `json:"harness"`
	Provider string               `json:"provider"`
	Model    agentproto.ModelList `json:"model"`
}

// target is the harness, provider and models the execute names, each
// empty when none of its layers names one (without a harness the host
// chooses one by model: routeByModel). yaml answers for the workflow.yaml
// layer.
func (r routing) target(yaml func(dir, configID string) agentTarget) agentTarget {
	layers := []agentTarget{r.Config}
	if id := r.Config.ConfigID; id != "" {
		var over struct {
			Agents map[string]agentTarget `json:"agents"`
		}
		_ = json.Unmarshal(r.Overrides, &over)
		if r.Label != "" {
			layers = append(layers, over.Agents[id+"#"+r.Label])
		}
		layers = append(layers, over.Agents[id], yaml(r.Workflow.Dir, id))
	}
	var t agentTarget
	for _, l := range layers {
		if t.Harness == "" {
			t.Harness = l.Harness
		}
		if t.Provider == "" {
			t.Provider = l.Provider
		}
		if len(t.Model) == 0 {
			t.Model = l.Model
		}
	}
	return t
}

// yamlAgents are the harnesses, providers and models the agents of the
// workflow.yaml in each directory name, read once per workflow for the
// run: the proxy routes every execute, and the run's workflows do not
// change under it.
type yamlAgents struct {
	mu   sync.Mutex
	dirs map[string]map[string]agentTarget // dir → configId → its target
}

// target is what workflow.yaml in dir names for the agent configID (none
// when the file cannot be read: the host reports a broken file when the
// agent is created).
func (y *yamlAgents) target(dir, configID string) agentTarget {
	y.mu.Lock()
	defer y.mu.Unlock()
	agents, ok := y.dirs[dir]
	if !ok {
		agents = readAgents(dir)
		if y.dirs == nil {
			y.dirs = map[string]map[string]agentTarget{}
		}
		y.dirs[dir] = agents
	}
	return agents[configID]
}

func readAgents(dir string) map[string]agentTarget {
	m, problems := manifest.Load(dir)
	if len(problems) > 0 {
		return nil
	}
	sections, _ := m.Sections["agents"].(map[string]any)
	agents := map[string]agentTarget{}
	for id, v := range sections {
		entry, _ := v.(map[string]any)
		var t agentTarget
		t.Harness, _ = entry["harness"].(string)
		t.Provider, _ = entry["provider"].(string)
		switch m := entry["model"].(type) {
		case string:
			t.Model = agentproto.ModelList{m}
		case []any:
			for _, e := range m {
				if s, ok := e.(string); ok {
					t.Model = append(t.Model, s)
				}
			}
		}
		agents[id] = t
	}
	return agents
}

// pollerCheck bounds the question whether any worker polls a queue.
const pollerCheck = 10 * time.Second

// queueFor is the task queue of an execute that names harness: the
// harness's own queue, which only workers able to run it poll (with a
// credential for it, or, for provider ollama, its Ollama queue), and whether
// a poller of it was seen. The server reports the pollers of one of a
// queue's partitions only, so not seeing one proves nothing: the workflow
// then gives the execute a bounded wait for a worker and fails it with
// harness_unavailable when none takes it. A queue seen polled is
// remembered for the run.
func (p *Proxy) queueFor(ctx context.Context, harness, provider string) (queue string, seen bool) {
	if harness == "" {
		return p.run.AgentQueue, true
	}
	q := engine.HarnessQueue(p.run.AgentQueue, harness)
	if provider == ollama.Provider {
		q = engine.OllamaQueue(p.run.AgentQueue, harness)
	}
	return q, p.polledQueue(ctx, q)
}

// polledQueue reports whether a poller of q was seen (remembered for the
// run once it was).
func (p *Proxy) polledQueue(ctx context.Context, q string) bool {
	p.mu.Lock()
	known := p.polled[q]
	p.mu.Unlock()
	if known {
		return true
	}
	ctx, cancel := context.WithTimeout(ctx, pollerCheck)
	defer cancel()
	desc, err := p.client.DescribeTaskQueue(ctx, q, enumspb.TASK_QUEUE_TYPE_ACTIVITY)
	if err != nil || len(desc.GetPollers()) == 0 {
		return false
	}
	p.mu.Lock()
	p.polled[q] = true
	p.mu.Unlock()
	return true
}

// ollamaModelQueue is the queue of an agent of harness on provider
// ollama: that of the first of its models a worker is seen to have
// (engine.OllamaModelQueue: the worker's Ollama listed it when the worker
// started), else "" (the harness's Ollama queue, any worker with the
// CLI, which fails it there when its Ollama lacks the model, as a local
// run would).
func (p *Proxy) ollamaModelQueue(ctx context.Context, harness string, models []string) string {
	for _, m := range models {
		name, err := ollama.NormalizeName(m)
		if err != nil {
			continue // the host reports the name
		}
		q := engine.OllamaModelQueue(p.run.AgentQueue, harness, name)
		if p.byModel.passOver(q) {
			continue
		}
		if p.polledQueue(ctx, q) {
			return q
		}
		p.byModel.unseenNow(q)
	}
	return ""
}
