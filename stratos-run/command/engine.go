package command

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/journalapi"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/shared/contract/temporalapi"
	"github.com/stratoscli/stratos/shared/procgroup"
	"github.com/stratoscli/stratos/shared/settings"
	"github.com/stratoscli/stratos/shared/sibling"
)

const (
	engineFlag        = "engine"
	replayJournalFlag = "replay-journal"
)

// temporalCancelWait bounds the wait for the Temporal engine's submitter
// after Ctrl-C: it cancels the run on every worker and waits for its
// result (at most a minute) before it gives up.
const temporalCancelWait = 75 * time.Second

// engine is the engine the run asks for: --engine, else settings.json's
// engine, else local.
func engine(cmd *cli.Command) (string, error) {
	if cmd.IsSet(engineFlag) {
		e := cmd.String(engineFlag)
		if e != settings.EngineLocal && e != settings.EngineTemporal {
			return "", clierr.Usage(temporalapi.CodeEngineUnknown, "--engine %q: the engines are local and temporal", e)
		}
		return e, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return settings.EngineLocal, nil
	}
	s, err := settings.Load(settings.Path(filepath.Join(home, ".stratos")))
	if err != nil {
		// The agent host reports a broken settings file, naming the key,
		// as it did before engines existed.
		return settings.EngineLocal, nil
	}
	return s.Engine, nil
}

// runOnTemporal hands the run to stratos-temporal, which starts it on
// Temporal workers and prints what the run printed there; its exit code is
// the run's.
func runOnTemporal(ctx context.Context, cmd *cli.Command) error {
	if cmd.Bool("detach") {
		return clierr.Usage(temporalapi.CodeDetachUnsupported, "--detach with the temporal engine is not available yet: the run keeps running on the workers if you stop waiting, but nothing here would follow it")
	}
	bin, err := sibling.Find("stratos-temporal")
	if err != nil {
		return err
	}
	root := cmd.Root()
	args := []string{"run"}
	if cmd.Bool("json") {
		// Its own errors (before the run's) as the envelope too.
		args = append(args, "--json")
	}
	args = append(append(args, "--"), forwardedArgs(cmd)...)
	c := exec.CommandContext(ctx, bin, args...)
	c.Stdin, c.Stdout, c.Stderr = root.Reader, root.Writer, root.ErrWriter
	// It speaks for the command the user typed: its errors name that.
	c.Env = cliapp.WithInvokedAs(os.Environ(), "stratos-temporal", root.Name)
	c.WaitDelay = temporalCancelWait
	err = procgroup.Run(c, procgroup.Options{DeathSignal: syscall.SIGTERM, CancelSignal: syscall.SIGINT})
	if c.ProcessState != nil && c.ProcessState.ExitCode() >= 0 {
		if code := c.ProcessState.ExitCode(); code != 0 {
			return &cliapp.SilentError{Code: code}
		}
		return nil
	}
	return clierr.New(runapi.CodeRunnerFailed, "run %s on Temporal: %v", bin, err)
}

// forwardedArgs are the run's flags and arguments without --engine.
func forwardedArgs(cmd *cli.Command) []string {
	var args []string
	for _, f := range cmd.Flags {
		name := f.Names()[0]
		if name == engineFlag || !cmd.IsSet(name) {
			continue
		}
		args = append(args, fmt.Sprintf("--%s=%v", name, cmd.Value(name)))
	}
	return append(args, cmd.Args().Slice()...)
}

// replayed is the resumption --replay-journal asks for: a worker of the
// Temporal engine retrying a run's code replays the journal the run's
// Temporal workflow kept (the record of the attempt before is on another
// machine).
func replayed(cmd *cli.Command) (*resumption, error) {
	path := cmd.String(replayJournalFlag)
	if path == "" {
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, clierr.Usage(runapi.CodeResumeNoJournal, "--replay-journal: %v", err)
	}
	defer f.Close()
	j, _, err := journalapi.Read(f)
	if err != nil {
		return nil, clierr.Usage(runapi.CodeResumeNoJournal, "--replay-journal %s: %v", path, err)
	}
	return &resumption{from: j.Header.ExecutionID, journal: j}, nil
}
