package command

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/stratos-run/detach"
	"github.com/stratoscli/stratos/stratos-run/records"
)

// Hidden flags of `run` that the background process of a detached run gets.
const (
	executionIDFlag = "execution-id"
	readyFDFlag     = "ready-fd"
)

// Budget flags of `run`.
const (
	budgetUSDFlag    = "budget-usd"
	budgetTokensFlag = "budget-tokens"
)

// consoleTail bounds how much of a failed background run's console output
// the error carries.
const consoleTail = 4 << 10

// detachResult is the JSON document of `run --detach`.
type detachResult struct {
	ExecutionID string `json:"executionId"`
	PID         int    `json:"pid"`
	Dir         string `json:"dir"`
}

// detach builds the workflow when needed and checks its input, then starts
// the run as a background process of its own and prints its ID once its
// record exists.
func (x *execution) detach(ctx context.Context, workflowArg string, stdout io.Writer) error {
	if err := x.target.Prepare(ctx, x.log, x.stderr); err != nil {
		return err
	}
	if err := x.checkMCPAuth(ctx); err != nil {
		return err
	}
	if err := x.checkInput(ctx); err != nil {
		return err
	}
	id, runsDir, console, err := newDetachedConsole()
	if err != nil {
		return err
	}
	defer console.Close()
	dir := filepath.Join(runsDir, id)
	pid, err := x.startBackground(ctx, workflowArg, id, console)
	if err != nil {
		report := consoleTailOf(console.Name())
		_ = os.RemoveAll(dir) // no record of a run that never began
		return clierr.New(runapi.CodeDetachFailed, "start %s in the background: %v%s", x.target.Name(), err, report).Wrap(err).
			WithDetails(map[string]any{"workflow": x.target.Name()})
	}
	if x.json {
		return clierr.PrintJSON(stdout, detachResult{ExecutionID: id, PID: pid, Dir: dir})
	}
	fmt.Fprintln(stdout, id)
	x.log.Info("started in the background; follow it with: stratos runs logs "+id+" --follow", "pid", pid)
	return nil
}

func (x *execution) startBackground(ctx context.Context, workflowArg, id string, console *os.File) (int, error) {
	exe, err := os.Executable()
	if err != nil {
		return 0, fmt.Errorf("find this executable: %w", err)
	}
	args := []string{"stratos-run", "run", workflowArg, "--input", "-",
		"--" + executionIDFlag, id, "--" + readyFDFlag, strconv.Itoa(detach.ReadyFD)}
	if len(x.overrides) > 0 {
		args = append(args, "--overrides", string(x.overrides))
	}
	// The resolved budget, so the background run applies the same one.
	if x.budget.USD > 0 {
		args = append(args, "--"+budgetUSDFlag, strconv.FormatFloat(x.budget.USD, 'g', -1, 64))
	}
	if x.budget.Tokens > 0 {
		args = append(args, "--"+budgetTokensFlag, strconv.FormatInt(x.budget.Tokens, 10))
	}
	if x.retries > 0 {
		args = append(args, "--"+retryFlag, strconv.Itoa(x.retries))
	}
	return detach.Start(ctx, detach.Spec{Path: exe, Args: args, Dir: x.cwd, Stdin: x.input, Console: console})
}

// newDetachedConsole picks a detached run's execution ID and creates its
// console file in the runs directory, where the run's record will be.
func newDetachedConsole() (id, runsDir string, console *os.File, err error) {
	if id, err = newExecutionID(time.Now()); err != nil {
		return "", "", nil, err
	}
	if runsDir, err = records.Dir(); err != nil {
		return "", "", nil, clierr.New(runapi.CodeRunRecordFailed, "%v", err).Wrap(err)
	}
	if console, err = records.CreateConsole(runsDir, id); err != nil {
		return "", "", nil, err
	}
	return id, runsDir, console, nil
}

// consoleTailOf is the end of a background run's console output (the
// file at path), as lines to append to an error message: only the last
// consoleTail bytes are read.
func consoleTailOf(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return ""
	}
	report := make([]byte, consoleTail)
	n, _ := f.ReadAt(report, max(0, fi.Size()-consoleTail))
	if n == 0 {
		return ""
	}
	return "\n" + string(report[:n])
}

// backgroundID is the execution ID a detached run's background process was
// given, "" for every other run.
func backgroundID(cmd *cli.Command) (string, error) {
	id := cmd.String(executionIDFlag)
	if id != "" && !records.ValidExecutionID(id) {
		return "", clierr.Usage(errcode.CodeUsage, "--%s %q is not an execution ID", executionIDFlag, id)
	}
	return id, nil
}

// reportReady tells the process that detached this run that its record has
// begun; that process then prints the ID and exits.
func (x *execution) reportReady(cmd *cli.Command) {
	fd := int(cmd.Int(readyFDFlag))
	if fd <= 0 {
		return
	}
	if err := detach.Ready(fd); err != nil {
		x.log.Warn("could not report that the run began", "error", err)
	}
}
