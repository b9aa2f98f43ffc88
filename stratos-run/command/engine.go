package command

import (
	"context"
	"encoding/json"
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
	"github.com/stratoscli/stratos/shared/logging"
	"github.com/stratoscli/stratos/shared/procgroup"
	"github.com/stratoscli/stratos/shared/settings"
	"github.com/stratoscli/stratos/shared/sibling"
	"github.com/stratoscli/stratos/stratos-run/detach"
	"github.com/stratoscli/stratos/stratos-run/records"
)

const (
	engineFlag        = "engine"
	repoFlag          = "repo"
	replayJournalFlag = "replay-journal"
	// replayStrictFlag and replayCarriedFlag are what stratos runs resume
	// of a Temporal run passes to the worker's stratos run with the
	// journal: runs resume's --strict, and what the resumed chain spent
	// (records.Spent as JSON), which the run's budget counts.
	replayStrictFlag  = "replay-strict"
	replayCarriedFlag = "replay-carried"
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

// repoWithoutTemporal refuses --repo on a local run: only a run on
// Temporal workers names a remote.
func repoWithoutTemporal(cmd *cli.Command) error {
	if !cmd.IsSet(repoFlag) {
		return nil
	}
	return clierr.Usage(temporalapi.CodeRepositoryRemote, "--repo %s: only a run on Temporal workers (--engine temporal) gets its repository from a remote", cmd.String(repoFlag))
}

// runOnTemporal hands the run to stratos-temporal, which starts it on
// Temporal workers and prints what the run printed there; its exit code is
// the run's. The run has a record here, as a local run does, that names
// its workflow: this process writes its end, or, when this process is
// gone first, the runs commands ask Temporal for it.
func runOnTemporal(ctx context.Context, cmd *cli.Command) error {
	if cmd.Bool("detach") {
		return detachOnTemporal(ctx, cmd)
	}
	bin, err := sibling.Find("stratos-temporal")
	if err != nil {
		return err
	}
	rec, err := beginTemporalRecord(ctx, cmd)
	if err != nil {
		return err
	}
	if fd := int(cmd.Int(readyFDFlag)); fd > 0 {
		_ = detach.Ready(fd) // the detaching process prints the ID now
	}
	var args []string
	if cmd.IsSet(repoFlag) {
		args = append(args, "--repo", cmd.String(repoFlag))
	}
	args = append(append(args, "--"), forwardedArgs(cmd)...)
	return rec.submit(ctx, cmd, bin, "", nil, args)
}

// submit runs stratos-temporal run for the record's run, with args after
// its own flags, in dir ("": this process's) with env added to this
// process's environment, and writes the run's end into the record.
func (r *temporalRecord) submit(ctx context.Context, cmd *cli.Command, bin, dir string, env, args []string) error {
	root := cmd.Root()
	stateFile := filepath.Join(r.dir, temporalStateFile)
	all := []string{"run", "--workflow-id", r.run.WorkflowID, "--state-file", stateFile,
		"--events-file", filepath.Join(r.dir, records.EventsFile)}
	if cmd.Bool("json") {
		// Its own errors (before the run's) as the envelope too.
		all = append(all, "--json")
	}
	c := exec.CommandContext(ctx, bin, append(all, args...)...)
	c.Dir = dir
	c.Stdin, c.Stdout, c.Stderr = root.Reader, root.Writer, root.ErrWriter
	// It speaks for the command the user typed: its errors name that.
	c.Env = cliapp.WithInvokedAs(append(os.Environ(), env...), "stratos-temporal", root.Name)
	c.WaitDelay = temporalCancelWait
	// SIGKILL when this process dies: a submitter killed outright is a
	// machine that died, and the run goes on on the workers (Ctrl-C and
	// runs stop cancel it: this process passes them on as SIGINT).
	err := procgroup.Run(c, procgroup.Options{DeathSignal: syscall.SIGKILL, CancelSignal: syscall.SIGINT})
	code := -1
	if c.ProcessState != nil {
		code = c.ProcessState.ExitCode()
	}
	r.finish(stateFile, code, logging.New("stratos", root.ErrWriter))
	if code >= 0 {
		if code != 0 {
			return &cliapp.SilentError{Code: code}
		}
		return nil
	}
	return clierr.New(runapi.CodeRunnerFailed, "run %s on Temporal: %v", bin, err)
}

// isLocalFlag reports whether the run's flag name is one the submitting
// process answers (the worker's stratos run does not get it).
func isLocalFlag(name string) bool {
	switch name {
	case engineFlag, "detach", executionIDFlag, readyFDFlag, repoFlag:
		return true
	}
	return false
}

// forwardedArgs are the run's flags and arguments but the local ones.
func forwardedArgs(cmd *cli.Command) []string {
	var args []string
	for _, f := range cmd.Flags {
		name := f.Names()[0]
		if isLocalFlag(name) || !cmd.IsSet(name) {
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
	r := &resumption{from: j.Header.ExecutionID, journal: j, strict: cmd.Bool(replayStrictFlag)}
	if c := cmd.String(replayCarriedFlag); c != "" {
		if err := json.Unmarshal([]byte(c), &r.carried); err != nil {
			return nil, clierr.Usage(runapi.CodeResumeNoJournal, "--%s %s: %v", replayCarriedFlag, c, err)
		}
	}
	return r, nil
}
