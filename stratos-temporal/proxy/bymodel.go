package proxy

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/stratoscli/stratos/shared/contract/modelsapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/catalog"
	"github.com/stratoscli/stratos/stratos-agent/harnesses"
	"github.com/stratoscli/stratos/stratos-temporal/engine"
)

// unseenFor is how long a harness queue no poller was seen on is passed
// over by routeByModel before it is asked about again (a worker may start).
const unseenFor = 30 * time.Second

// modelRoutes route an agent that names no harness by its models: the
// host of whichever worker takes it chooses a harness by model among what
// that worker can run, so it goes to the queue of the first harness of its
// candidates (the host's own order: stratos-models candidates, with the
// rules of the harnesses Stratos registers) that a worker was seen to
// poll, which only workers able to run that harness do. Without one seen,
// it goes to the agent queue every worker polls, as before.
type modelRoutes struct {
	catalog catalog.Catalog
	// rules are the registered harnesses' selection rules, made at the
	// first agent routed by model, not at every run's start.
	rules     map[string]modelsapi.HarnessRules
	rulesOnce sync.Once

	mu        sync.Mutex
	harnesses map[string][]string  // models, joined → the candidates' harnesses in order
	unseen    map[string]time.Time // harness queue → when no poller was seen on it
}

func newModelRoutes(c catalog.Catalog) *modelRoutes {
	return &modelRoutes{catalog: c, harnesses: map[string][]string{}, unseen: map[string]time.Time{}}
}

func (m *modelRoutes) harnessRules() map[string]modelsapi.HarnessRules {
	m.rulesOnce.Do(func() {
		if reg, err := harnesses.New(harnesses.Builtin(adapter.Options{})...); err == nil {
			m.rules = reg.Rules()
		}
	})
	return m.rules
}

// order is the harnesses of models' candidates, in try order, asked of
// the catalog once per model list for the run (nil when it cannot say:
// the agent then goes to any worker, whose host reports the catalog's
// error).
func (m *modelRoutes) order(ctx context.Context, models []string) []string {
	key := strings.Join(models, "\n")
	m.mu.Lock()
	order, ok := m.harnesses[key]
	m.mu.Unlock()
	if ok {
		return order
	}
	cands, err := m.catalog.Candidates(ctx, catalog.Query{Models: models, Rules: m.harnessRules()})
	if err != nil {
		return nil
	}
	for _, c := range cands {
		if !slices.Contains(order, c.Harness) {
			order = append(order, c.Harness)
		}
	}
	m.mu.Lock()
	m.harnesses[key] = order
	m.mu.Unlock()
	return order
}

// routeByModel is the queue of an agent that names no harness but models.
func (p *Proxy) routeByModel(ctx context.Context, models []string) string {
	for _, h := range p.byModel.order(ctx, models) {
		q := engine.HarnessQueue(p.run.AgentQueue, h)
		if p.byModel.passOver(q) {
			continue
		}
		if p.polledQueue(ctx, q) {
			return q
		}
		p.byModel.unseenNow(q)
	}
	return p.run.AgentQueue
}

// passOver reports whether q is a queue no poller was seen on lately.
func (m *modelRoutes) passOver(q string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	at, ok := m.unseen[q]
	return ok && time.Since(at) < unseenFor
}

// unseenNow notes that no poller of q was seen.
func (m *modelRoutes) unseenNow(q string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.unseen[q] = time.Now()
}
