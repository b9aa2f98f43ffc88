package command

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/boundedread"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/shared/logging"
	"github.com/stratoscli/stratos/shared/settings"
	"github.com/stratoscli/stratos/stratos-run/detach"
)

// maxDetachedStdin bounds an input a detached Temporal run reads from
// stdin (--input -): it is handed to the background process, and then
// travels in a Temporal payload.
const maxDetachedStdin = 1 << 20

// detachOnTemporal starts the submitting process of a Temporal run in the
// background, as a detached local run is started, and prints the run's ID
// once its record has begun: the background process waits for the run,
// which runs on the workers, and writes its end into the record. Nothing
// is built here (the worker builds).
func detachOnTemporal(ctx context.Context, cmd *cli.Command) error {
	root := cmd.Root()
	var stdin []byte
	if cmd.String("input") == "-" {
		var err error
		if stdin, err = boundedread.Reader(ctx, root.Reader, maxDetachedStdin); err != nil {
			return clierr.Usage(runapi.CodeInputInvalid, "read the input from stdin: %v", err)
		}
	}
	id, runsDir, console, err := newDetachedConsole()
	if err != nil {
		return err
	}
	defer console.Close()
	exe, err := os.Executable()
	if err != nil {
		return clierr.New(runapi.CodeDetachFailed, "find this executable: %v", err).Wrap(err)
	}
	args := []string{"stratos-run", "run", "--" + engineFlag, settings.EngineTemporal,
		"--" + executionIDFlag, id, "--" + readyFDFlag, strconv.Itoa(detach.ReadyFD)}
	if cmd.IsSet(repoFlag) {
		args = append(args, "--"+repoFlag, cmd.String(repoFlag))
	}
	args = append(args, forwardedArgs(cmd)...)
	cwd, _ := os.Getwd()
	dir := filepath.Join(runsDir, id)
	pid, err := detach.Start(ctx, detach.Spec{Path: exe, Args: args, Dir: cwd, Stdin: stdin, Console: console})
	if err != nil {
		report := consoleTailOf(console.Name())
		_ = os.RemoveAll(dir) // no record of a run that never began
		return clierr.New(runapi.CodeDetachFailed, "start the submission of %s to Temporal in the background: %v%s", cmd.Args().First(), err, report).Wrap(err).
			WithDetails(map[string]any{"workflow": cmd.Args().First()})
	}
	if cmd.Bool("json") {
		return clierr.PrintJSON(root.Writer, detachResult{ExecutionID: id, PID: pid, Dir: dir})
	}
	fmt.Fprintln(root.Writer, id)
	logging.New("stratos", root.ErrWriter).Info("started in the background on Temporal; follow it with: stratos runs logs "+id+" --follow", "pid", pid)
	return nil
}
