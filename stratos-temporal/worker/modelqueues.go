package worker

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	tworker "go.temporal.io/sdk/worker"

	"github.com/stratoscli/stratos/stratos-temporal/engine"
)

// modelQueues polls the queue of each model the worker's Ollama has
// (engine.OllamaModelQueue), for each harness that reaches Ollama: the
// models listed when the worker started, and those it comes to list while
// it runs (watch), so that `ollama pull` on a worker's machine needs no
// restart. A model removed since keeps its queue: its agents are taken
// here and fail with model_unavailable, as a local run's would, rather
// than wait on a queue the server still reports as polled.
type modelQueues struct {
	agentQueue string
	harnesses  []string                                   // the harnesses that reach Ollama
	start      func(queue string) (tworker.Worker, error) // a started worker of queue
	worker     string                                     // this worker's name, for its messages
	stderr     io.Writer

	mu      sync.Mutex
	polled  map[string]bool // the queues a worker was started for
	workers []tworker.Worker
	stopped bool
}

// add polls the queues of models not polled yet, and returns the models
// it started a queue for. A queue that failed to start is tried again by
// the next add; those started before it stay.
func (m *modelQueues) add(models []string) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var added []string
	for _, model := range models {
		for _, h := range m.harnesses {
			q := engine.OllamaModelQueue(m.agentQueue, h, model)
			if m.polled[q] || m.stopped {
				continue
			}
			w, err := m.start(q)
			if err != nil {
				return added, err
			}
			m.workers = append(m.workers, w)
			m.polled[q] = true
			if !slices.Contains(added, model) {
				added = append(added, model)
			}
		}
	}
	return added, nil
}

// watch asks list every interval until ctx ends, and polls the queues of
// the models it lists that were not polled yet. An Ollama that does not
// answer changes nothing.
func (m *modelQueues) watch(ctx context.Context, every time.Duration, list func(context.Context) ([]string, error)) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		models, err := list(ctx)
		if err != nil {
			continue
		}
		added, err := m.add(models)
		if len(added) > 0 {
			slices.Sort(added)
			fmt.Fprintf(m.stderr, "stratos worker %s: its Ollama now has %s: taking their agents too\n", m.worker, strings.Join(added, ", "))
		}
		if err != nil {
			fmt.Fprintf(m.stderr, "stratos worker %s: %v\n", m.worker, err)
		}
	}
}

// stop stops every queue's worker; add starts none after it.
func (m *modelQueues) stop() {
	m.mu.Lock()
	ws := m.workers
	m.workers, m.stopped = nil, true
	m.mu.Unlock()
	for _, w := range ws {
		w.Stop()
	}
}
