package command

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/shared/sibling"
	"github.com/stratoscli/stratos/stratos-run/invocation"
	"github.com/stratoscli/stratos/stratos-run/records"
	"github.com/stratoscli/stratos/stratos-run/runs"
)

// resumeOnTemporal resumes a run on the Temporal engine there: a new
// Temporal run, on the run's server and task queue and in its working
// directory, of the arguments the run's workflow was started with but for
// those the flags give. Its request names the run's workflow, whose
// journal the worker running the new run's code replays (the record here
// has none: the run's code ran on a worker). Its record here is linked to
// the run's (resumedFrom) and carries what the chain spent, as a local
// resume's does.
func resumeOnTemporal(ctx context.Context, cmd *cli.Command, point *runs.ResumePoint) error {
	old := point.Invocation
	override, input, err := temporalOverrides(ctx, cmd, old.Input)
	if err != nil {
		return err
	}
	carried := point.ChainSpent()
	data, err := json.Marshal(carried)
	if err != nil {
		return clierr.New(runapi.CodeRunRecordFailed, "encode what the resumed runs spent: %v", err).Wrap(err)
	}
	override = append(override, "--"+replayCarriedFlag+"="+string(data), "--"+replayStrictFlag+"="+strconv.FormatBool(cmd.Bool("strict")))
	bin, err := sibling.Find("stratos-temporal")
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	id, err := newExecutionID(now)
	if err != nil {
		return err
	}
	runsDir, err := records.Dir()
	if err != nil {
		return clierr.New(runapi.CodeRunRecordFailed, "%v", err).Wrap(err)
	}
	run := *old.Temporal
	run.WorkflowID = "stratos-" + id
	rec, err := records.Begin(runsDir, records.Invocation{ExecutionID: id, Workflow: old.Workflow, Cwd: old.Cwd,
		Input: input, PID: os.Getpid(), StartedAt: now, Temporal: &run, ResumedFrom: old.ExecutionID, Carried: &carried})
	if err != nil {
		return err
	}
	args := append([]string{"--" + resumeOfFlag, old.Temporal.WorkflowID, "--task-queue", run.TaskQueue, "--"}, override...)
	env := []string{"TEMPORAL_ADDRESS=" + run.Address, "TEMPORAL_NAMESPACE=" + run.Namespace}
	return (&temporalRecord{dir: rec.Dir(), run: run}).submit(ctx, cmd, bin, old.Cwd, env, args)
}

// resumeOfFlag is stratos-temporal run's flag naming the workflow of the
// run it resumes.
const resumeOfFlag = "resume-of"

// temporalOverrides are the stratos run flags that replace the resumed
// run's own (runs resume's --input, read here, and budget flags, checked
// here), and the input the new record keeps.
func temporalOverrides(ctx context.Context, cmd *cli.Command, input json.RawMessage) ([]string, json.RawMessage, error) {
	var override []string
	if cmd.IsSet("input") {
		var err error
		if input, err = invocation.ReadInput(ctx, cmd.String("input"), cmd.Root().Reader); err != nil {
			return nil, nil, err
		}
		override = append(override, "--input="+string(input))
	}
	limits, err := resumedBudget(cmd, nil)
	if err != nil {
		return nil, nil, err
	}
	if cmd.IsSet(budgetUSDFlag) {
		override = append(override, "--"+budgetUSDFlag+"="+strconv.FormatFloat(limits.USD, 'g', -1, 64))
	}
	if cmd.IsSet(budgetTokensFlag) {
		override = append(override, "--"+budgetTokensFlag+"="+strconv.FormatInt(limits.Tokens, 10))
	}
	if cmd.Bool("json") {
		override = append(override, "--json=true")
	}
	return override, input, nil
}
