// Package command implements the stratos-temporal CLI: stratos worker, the
// submitting side of stratos run --engine temporal, and the agent host of
// workflow code on a worker. Main is called by cmd/stratos-temporal and,
// in-process, by the testscripts module.
package command

import (
	"context"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/temporalapi"
	"github.com/stratoscli/stratos/shared/sibling"
	"github.com/stratoscli/stratos/shared/version"
	"github.com/stratoscli/stratos/stratos-temporal/connect"
	"github.com/stratoscli/stratos/stratos-temporal/proxy"
	"github.com/stratoscli/stratos/stratos-temporal/worker"
)

// Main runs stratos-temporal with args (args[0] is the program name) and
// returns the process exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cliapp.Run(newCommand(), args, cliapp.IO{Stdin: stdin, Stdout: stdout, Stderr: stderr})
}

// Root returns the command tree without running it (docs generation).
func Root() *cli.Command { return newCommand() }

// EnvTaskQueue names the default task queue of workers and of runs.
const EnvTaskQueue = "STRATOS_TASK_QUEUE"

const defaultQueue = "stratos"

// What a worker takes (--take).
const (
	roleCode   = "code"
	roleAgents = "agents"
)

func newCommand() *cli.Command {
	return &cli.Command{
		Name:     "stratos-temporal",
		Version:  version.Version,
		Usage:    "run workflows and agents on Temporal workers",
		Commands: []*cli.Command{workerCommand(), runCommand(), serveCommand(), describeCommand(), cancelCommand()},
	}
}

func queueFlag() *cli.StringFlag {
	return &cli.StringFlag{Name: "task-queue", Value: defaultQueue, Sources: cli.EnvVars(EnvTaskQueue),
		Usage: "the Temporal task queue (agents use <queue>.agents)"}
}

func workerCommand() *cli.Command {
	return &cli.Command{
		Name:      "worker",
		Usage:     "take runs and agents from a Temporal task queue until stopped",
		UsageText: "stratos worker [--task-queue NAME] [--max-agents N] [--name NAME] [--take code,agents] [--ollama-every DURATION]",
		Description: cliapp.Lines(
			"Connects to the Temporal server the temporal CLI's variables name (TEMPORAL_ADDRESS,",
			"default 127.0.0.1:7233; TEMPORAL_NAMESPACE, default default; TEMPORAL_API_KEY;",
			"TEMPORAL_TLS and TEMPORAL_TLS_CLIENT_CERT_PATH, _CLIENT_KEY_PATH, _SERVER_CA_CERT_PATH,",
			"_SERVER_NAME, _DISABLE_HOST_VERIFICATION) and runs, on this machine, the work of runs",
			"started with stratos run --engine temporal: their workflow code (stratos run, node) and",
			"their agents (an agent host and the harness CLIs, as locally). Start one per machine; a",
			"run's work spreads over every worker of its task queue, and goes on elsewhere when a",
			"worker dies. --take code or --take agents makes a worker take only that part (a machine",
			"without harnesses takes code). Ctrl-C stops it (exit 130); what it was running is given to",
			"other workers.",
			"See docs/temporal.md.",
		),
		Flags: []cli.Flag{
			queueFlag(),
			&cli.IntFlag{Name: "max-agents", Value: 8, Usage: "the most agent executes this worker runs at once"},
			&cli.StringFlag{Name: "name", Usage: "this worker's name in events and logs (default: host name and process ID)"},
			&cli.StringSliceFlag{Name: "take", Value: []string{roleCode, roleAgents}, Usage: "the work this worker takes: code (runs' workflow code), agents (agent executes), or both"},
			&cli.DurationFlag{Name: "ollama-every", Value: 30 * time.Second, Usage: "how often the worker asks its Ollama for models pulled since it started, to take their agents (0: only at start)"},
		},
		Action: runWorker,
	}
}

func runWorker(ctx context.Context, cmd *cli.Command) error {
	if cmd.Int("max-agents") < 1 {
		return clierr.Usage(temporalapi.CodeConfig, "--max-agents must be at least 1, not %d", cmd.Int("max-agents"))
	}
	if cmd.Duration("ollama-every") < 0 {
		return clierr.Usage(temporalapi.CodeConfig, "--ollama-every must not be negative, not %s", cmd.Duration("ollama-every"))
	}
	name := cmd.String("name")
	if name == "" {
		host, _ := os.Hostname()
		name = host + "-" + strconv.Itoa(os.Getpid())
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return clierr.New(temporalapi.CodeWorkerFailed, "find the home directory: %v", err)
	}
	c, err := connect.Dial(ctx, os.Getenv, cmd.Root().ErrWriter)
	if err != nil {
		return err
	}
	defer c.Close()
	cfg := worker.Config{Name: name, TaskQueue: cmd.String("task-queue"), MaxAgents: int(cmd.Int("max-agents")),
		Dir: home + "/.stratos/worker", Stderr: cmd.Root().ErrWriter, OllamaEvery: cmd.Duration("ollama-every")}
	for _, r := range cmd.StringSlice("take") {
		switch r {
		case roleCode:
			cfg.Code = true
		case roleAgents:
			cfg.Agents = true
		default:
			return clierr.Usage(temporalapi.CodeConfig, "--take %q: a worker takes code, agents, or both", r)
		}
	}
	if err := worker.Run(ctx, c, cfg); err != nil {
		return clierr.New(temporalapi.CodeWorkerFailed, "worker %s: %v", name, err).Wrap(err)
	}
	// Stopped by Ctrl-C or SIGTERM: exit 130. What it ran goes to other
	// workers as their heartbeats time out.
	return ctx.Err()
}

func serveCommand() *cli.Command {
	return &cli.Command{
		Name:   "serve",
		Usage:  "the agent host of a run's workflow code on a worker (started by the SDK, not by hand)",
		Hidden: true,
		Action: func(ctx context.Context, cmd *cli.Command) error {
			runID := os.Getenv(proxy.EnvRun)
			if runID == "" {
				return clierr.Usage(temporalapi.CodeNoRunToServe, "%s is not set: stratos-temporal serve is the agent host of a run on a stratos worker", proxy.EnvRun)
			}
			host, err := sibling.Find("stratos-agent")
			if err != nil {
				return err
			}
			c, err := connect.Dial(context.WithoutCancel(ctx), os.Getenv, cmd.Root().ErrWriter)
			if err != nil {
				return err
			}
			defer c.Close()
			// Like stratos-agent serve, it ends when its input ends, not on
			// a signal: the SDK cancels its agents itself.
			dc, err := connect.DataConverter(os.Getenv)
			if err != nil {
				return err
			}
			if err := proxy.New(c, proxy.Run{ID: runID, Queue: os.Getenv(proxy.EnvQueue), AgentQueue: os.Getenv(proxy.EnvAgentQueue), Converter: dc, Publish: os.Getenv(proxy.EnvPublish)}, host, cmd.Root().ErrWriter).Serve(context.WithoutCancel(ctx), cmd.Root().Reader, cmd.Root().Writer); err != nil {
				return clierr.New(temporalapi.CodeProxyFailed, "agent host of run %s: %v", runID, err)
			}
			return nil
		},
	}
}
