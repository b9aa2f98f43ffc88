// Package worker is stratos worker: a long-running process that takes a
// Temporal task queue's work — runs' workflows, their workflow code (stratos
// run, on this machine) and their agent executes (an agent host per run,
// on this machine) — until it is stopped.
package worker

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	tworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/stratoscli/stratos/shared/sibling"
	"github.com/stratoscli/stratos/stratos-temporal/engine"
)

// Config is a worker's settings.
type Config struct {
	Name      string
	TaskQueue string
	// MaxAgents bounds the agent executes this worker runs at once.
	MaxAgents int
	// Code and Agents say which work the worker takes: runs' workflow
	// code, agent executes, or both.
	Code, Agents bool
	// Dir keeps the worker's files: each run's agent host directory and
	// replayed journals.
	Dir    string
	Stderr io.Writer
	// OllamaEvery is how often the worker asks its Ollama for models it
	// did not have (0: only when it starts).
	OllamaEvery time.Duration
}

// workflowPollers is how many execute workflows' tasks a code worker asks
// for at once.
const workflowPollers = 8

// Run serves the task queue until ctx ends.
func Run(ctx context.Context, c client.Client, cfg Config) error {
	bins, err := findTools()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(cfg.Dir, 0o700); err != nil {
		return err
	}
	hs := &hosts{bin: bins.agent, dir: filepath.Join(cfg.Dir, "hosts"), worker: cfg.Name, stderr: cfg.Stderr, byRun: map[string]*host{}}
	defer hs.closeAll()
	if cfg.Agents {
		hs.prepare()
	}
	rp := newRepos(cfg.Dir, cfg.Stderr)
	cd := &code{stratosRun: bins.run, self: bins.self, dir: cfg.Dir, runs: filepath.Join(filepath.Dir(cfg.Dir), "runs"), worker: cfg.Name, stderr: cfg.Stderr, repos: rp, hosts: hs}
	own := engine.OwnQueue(cfg.TaskQueue, cfg.Name)
	ag := &agents{hosts: hs, repos: rp, dir: cfg.Dir, queue: own, slots: make(chan struct{}, max(cfg.MaxAgents, 1))}

	var polling []tworker.Worker
	// The queues of the Ollama models the worker has, started with the
	// others and then as its Ollama comes to list more (nil without
	// agents).
	var models *modelQueues
	var initialModels []string
	if cfg.Code {
		// The code's heartbeats go to the server every heartbeatEvery, not
		// every 8 s (the SDK's default, 80% of the 10 s timeout): they carry
		// its console output to the submitter, and a beat 2 s late no longer
		// costs the attempt.
		runs := tworker.New(c, cfg.TaskQueue, tworker.Options{Identity: cfg.Name, MaxHeartbeatThrottleInterval: heartbeatEvery})
		runs.RegisterWorkflowWithOptions(engine.Run, workflow.RegisterOptions{Name: engine.WorkflowRun})
		// Executes of earlier versions ran on the run's queue.
		runs.RegisterWorkflowWithOptions(engine.Execute, workflow.RegisterOptions{Name: engine.WorkflowExecute})
		runs.RegisterActivityWithOptions(cd.Run, activity.RegisterOptions{Name: engine.ActivityRunCode})
		// The code's agent host runs its executes' workflows itself; this
		// worker takes those whose host is gone (its worker died), a
		// fan-out's many at once: the SDK's 2 pollers left such tasks
		// waiting 1-2 s each for one on a loaded machine.
		execs := tworker.New(c, engine.ExecuteQueue(cfg.TaskQueue), tworker.Options{Identity: cfg.Name, LocalActivityWorkerOnly: true, MaxConcurrentWorkflowTaskPollers: workflowPollers})
		execs.RegisterWorkflowWithOptions(engine.Execute, workflow.RegisterOptions{Name: engine.WorkflowExecute})
		polling = append(polling, runs, execs)
		fmt.Fprintf(cfg.Stderr, "stratos worker %s: taking runs, their workflow code and their executes' workflows from task queue %s\n", cfg.Name, cfg.TaskQueue)
	}
	if cfg.Agents {
		// Each queue takes at most MaxAgents tasks, and the executes of all
		// of them share MaxAgents slots (agents.slots). One slot supplier
		// shared by the queues would bound them together before they
		// take a task, but a poller holds a slot while it waits, so a
		// queue could go without any poller at all.
		// Heartbeats go to the server as they are made (at most one per
		// heartbeatEvery), not 16 s later: they carry the agents' events
		// to the run while they work (progressBeats).
		opts := tworker.Options{Identity: cfg.Name, MaxConcurrentActivityExecutionSize: cfg.MaxAgents, DisableWorkflowWorker: true,
			MaxHeartbeatThrottleInterval: heartbeatEvery}
		// Agents whose harness the code's host knows go to that harness's
		// queue, which only workers able to run it poll; the others to
		// the queue every agent worker polls.
		queues := []string{engine.AgentQueue(cfg.TaskQueue), own}
		caps := Capabilities(ctx, os.Getenv)
		agentWorker := func(q string) tworker.Worker {
			w := tworker.New(c, q, opts)
			w.RegisterActivityWithOptions(ag.Execute, activity.RegisterOptions{Name: engine.ActivityAgentExecute})
			return w
		}
		models = &modelQueues{agentQueue: engine.AgentQueue(cfg.TaskQueue), worker: cfg.Name, stderr: cfg.Stderr, polled: map[string]bool{},
			start: func(q string) (tworker.Worker, error) {
				w := agentWorker(q)
				return w, w.Start()
			}}
		for _, c := range caps {
			if c.Authenticated() {
				queues = append(queues, engine.HarnessQueue(engine.AgentQueue(cfg.TaskQueue), c.Harness))
			}
			if c.Ollama {
				queues = append(queues, engine.OllamaQueue(engine.AgentQueue(cfg.TaskQueue), c.Harness))
				models.harnesses = append(models.harnesses, c.Harness)
				initialModels = c.OllamaModels
			}
		}
		for _, q := range queues {
			w := agentWorker(q)
			if q == own {
				w.RegisterActivityWithOptions(ag.CloseRun, activity.RegisterOptions{Name: engine.ActivityCloseRun})
			}
			polling = append(polling, w)
		}
		fmt.Fprintf(cfg.Stderr, "stratos worker %s: taking agents (at most %d at once) of harnesses %s\n", cfg.Name, cfg.MaxAgents, describe(caps))
	}
	var started []tworker.Worker
	defer func() {
		for _, w := range started {
			w.Stop()
		}
	}()
	for _, w := range polling {
		if err := w.Start(); err != nil {
			return fmt.Errorf("start polling: %w", err)
		}
		started = append(started, w)
	}
	if models != nil && len(models.harnesses) > 0 {
		defer models.stop()
		if _, err := models.add(initialModels); err != nil {
			return fmt.Errorf("start polling: %w", err)
		}
		if cfg.OllamaEvery > 0 {
			go models.watch(ctx, cfg.OllamaEvery, func(ctx context.Context) ([]string, error) { return listOllama(ctx, os.Getenv) })
		}
	}
	go ag.reap(ctx, workflowEnded(c))
	<-ctx.Done()
	return nil
}

// describe lists the harnesses and how each can authenticate: the
// credential variables set, its login, none needed, or Ollama only.
func describe(caps []Capability) string {
	parts := make([]string, len(caps))
	for i, c := range caps {
		var how []string
		if len(c.Credentials) > 0 {
			how = append(how, "credentials: "+strings.Join(c.Credentials, ", "))
		}
		if c.LoggedIn {
			how = append(how, "logged in")
		}
		if c.Ollama && len(c.OllamaModels) > 0 {
			how = append(how, "Ollama models: "+strings.Join(c.OllamaModels, ", "))
		}
		switch {
		case !c.Authenticated() && c.Ollama:
			how = append(how, "provider ollama only: no credential")
		case !c.Authenticated():
			how = append(how, "not taken: no credential")
		}
		parts[i] = c.Harness
		if len(how) > 0 {
			parts[i] += " (" + strings.Join(how, "; ") + ")"
		}
	}
	return strings.Join(parts, ", ")
}

// tools are the binaries a worker starts.
type tools struct{ run, agent, self string }

func findTools() (tools, error) {
	var t tools
	var err error
	if t.run, err = sibling.Find("stratos-run"); err != nil {
		return t, err
	}
	if t.agent, err = sibling.Find("stratos-agent"); err != nil {
		return t, err
	}
	t.self, err = sibling.Find("stratos-temporal")
	return t, err
}
