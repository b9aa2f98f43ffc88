package worker

import (
	"bytes"
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tworker "go.temporal.io/sdk/worker"
)

// stubWorker is a started queue's worker: only Stop is called.
type stubWorker struct {
	tworker.Worker
	stopped *int
}

func (w stubWorker) Stop() { *w.stopped++ }

func TestModelQueuesPollEachModelOnce(t *testing.T) {
	var mu sync.Mutex
	var started []string
	stopped := 0
	var log bytes.Buffer
	m := &modelQueues{agentQueue: "q.agents", harnesses: []string{"codex", "opencode"}, worker: "w", stderr: &log, polled: map[string]bool{},
		start: func(q string) (tworker.Worker, error) {
			mu.Lock()
			defer mu.Unlock()
			started = append(started, q)
			return stubWorker{stopped: &stopped}, nil
		}}
	if added, err := m.add([]string{"qwen3:8b"}); err != nil || !slices.Equal(added, []string{"qwen3:8b"}) {
		t.Fatalf("add = %v, %v", added, err)
	}
	// Asked every millisecond: first an Ollama that does not answer, then
	// one with a model pulled since.
	calls := 0
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		m.watch(ctx, time.Millisecond, func(context.Context) ([]string, error) {
			mu.Lock()
			defer mu.Unlock()
			calls++
			switch {
			case calls == 1:
				return nil, errors.New("connection refused")
			case calls == 3:
				cancel()
			}
			return []string{"qwen3:8b", "llama3:8b"}, nil
		})
	}()
	<-done
	want := []string{
		"q.agents.codex.ollama.qwen3:8b", "q.agents.opencode.ollama.qwen3:8b",
		"q.agents.codex.ollama.llama3:8b", "q.agents.opencode.ollama.llama3:8b",
	}
	if !slices.Equal(started, want) {
		t.Errorf("queues started = %v, want %v", started, want)
	}
	if got := log.String(); strings.Count(got, "its Ollama now has llama3:8b") != 1 || strings.Contains(got, "qwen3") {
		t.Errorf("log = %q, want llama3:8b announced once", got)
	}
	m.stop()
	if stopped != 4 {
		t.Errorf("stopped %d workers, want 4", stopped)
	}
	if added, _ := m.add([]string{"gemma3:latest"}); added != nil || len(started) != 4 {
		t.Errorf("add after stop started %v", added)
	}
}

// TestModelQueuesRetryOnlyWhatFailedToStart: a queue that failed to start
// is started by the next add, without a second worker for those that did.
func TestModelQueuesRetryOnlyWhatFailedToStart(t *testing.T) {
	var started []string
	stopped := 0
	fail := true
	m := &modelQueues{agentQueue: "q.agents", harnesses: []string{"codex", "opencode"}, worker: "w", stderr: io.Discard, polled: map[string]bool{},
		start: func(q string) (tworker.Worker, error) {
			if strings.Contains(q, "opencode") && fail {
				fail = false
				return nil, errors.New("the server is unreachable")
			}
			started = append(started, q)
			return stubWorker{stopped: &stopped}, nil
		}}
	if _, err := m.add([]string{"qwen3:8b"}); err == nil {
		t.Fatal("add = nil error, want the failed start's")
	}
	if added, err := m.add([]string{"qwen3:8b"}); err != nil || !slices.Equal(added, []string{"qwen3:8b"}) {
		t.Fatalf("second add = %v, %v", added, err)
	}
	if want := []string{"q.agents.codex.ollama.qwen3:8b", "q.agents.opencode.ollama.qwen3:8b"}; !slices.Equal(started, want) {
		t.Errorf("queues started = %v, want %v", started, want)
	}
}
