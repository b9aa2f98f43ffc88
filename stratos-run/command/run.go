package command

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/discoverapi"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/shared/contract/temporalapi"
	"github.com/stratoscli/stratos/shared/logging"
	"github.com/stratoscli/stratos/shared/settings"
	"github.com/stratoscli/stratos/stratos-run/budget"
	"github.com/stratoscli/stratos/stratos-run/invocation"
	"github.com/stratoscli/stratos/stratos-run/preparation"
	"github.com/stratoscli/stratos/stratos-run/records"
	"github.com/stratoscli/stratos/stratos-run/runs"
	"github.com/stratoscli/stratos/stratos-run/supervise"
	"github.com/stratoscli/stratos/stratos-run/tracing"
)

// execution is one `stratos run`, from its run record on.
type execution struct {
	id        string
	target    *preparation.Target
	cwd       string
	input     json.RawMessage
	overrides json.RawMessage
	record    *records.Run
	trace     *tracing.Run  // nil unless the OTEL_* variables ask for export
	early     *runner       // node started before the record (startEarly), nil when not
	earlyErr  *clierr.Error // why startEarly could not start node
	budget    budget.Limits
	log       hclog.Logger
	stderr    io.Writer
	json      bool
	resume    *resumption // nil unless stratos runs resume
	// validator is the output check's validator process, launched as the
	// command began; nil when it was not (a check then starts its own).
	validator *validatorLaunch
	retries   int // --retry
	// env is added to the runtime's environment, which the agent host and
	// the harnesses inherit (stratos test marks its cases' runs so).
	env []string
}

func runWorkflow(ctx context.Context, cmd *cli.Command) error {
	if err := cliapp.ExactArgs(cmd, 1, 1, "<workflow|path> [--input JSON|@file|-] [--overrides JSON|@file] [--json]"); err != nil {
		return err
	}
	if e, err := engine(cmd); err != nil {
		return err
	} else if e == settings.EngineTemporal {
		return runOnTemporal(ctx, cmd)
	}
	if err := repoWithoutTemporal(cmd); err != nil {
		return err
	}
	validator := launchValidator()
	defer validator.close()
	root := cmd.Root()
	input, err := invocation.ReadInput(ctx, cmd.String("input"), root.Reader)
	if err != nil {
		return err
	}
	overrides, err := invocation.ReadOverrides(ctx, cmd.String("overrides"))
	if err != nil {
		return err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return clierr.New(discoverapi.CodeCwdUnreadable, "read the working directory: %v", err).Wrap(err)
	}
	target, err := preparation.Resolve(cwd, cmd.Args().First())
	if err != nil {
		return err
	}
	if err := invocation.CheckOverrideTargets(overrides, target.Name(), target.Workflow.Manifest.Sections["agents"]); err != nil {
		return err
	}
	if err := invocation.CheckAgentSettings(ctx, overrides, target.Workflow.Dir, root.ErrWriter); err != nil {
		return err
	}
	limits, err := budgetLimits(cmd, target)
	if err != nil {
		return err
	}
	x := &execution{target: target, cwd: cwd, input: input, overrides: overrides, budget: limits, validator: validator,
		log: logging.New("stratos", root.ErrWriter), stderr: root.ErrWriter, json: cmd.Bool("json"), retries: int(cmd.Int(retryFlag))}
	if cmd.Bool("detach") {
		return x.detach(ctx, cmd.Args().First(), root.Writer)
	}
	if x.resume, err = replayed(cmd); err != nil {
		return err
	}
	if x.id, err = backgroundID(cmd); err != nil {
		return err
	}
	x.startEarly(ctx)
	if err := x.begin(); err != nil {
		x.early.abort()
		return err
	}
	x.reportReady(cmd)
	output, runErr := x.run(ctx)
	x, output, runErr = x.retry(ctx, output, runErr)
	if runErr != nil {
		return x.describe(runErr)
	}
	return clierr.PrintJSON(root.Writer, output)
}

// begin allocates the execution ID (unless the run was given one) and
// writes the run record's start.
func (x *execution) begin() error {
	now := time.Now().UTC()
	id := x.id
	if id == "" {
		var err error
		if id, err = newExecutionID(now); err != nil {
			return err
		}
	}
	runs, err := records.Dir()
	if err != nil {
		return clierr.New(runapi.CodeRunRecordFailed, "%v", err).Wrap(err)
	}
	reconcileStale(runs, x.log)
	w := x.target.Workflow
	x.id = id
	x.record, err = records.Begin(runs, records.Invocation{
		ExecutionID: id, Workflow: x.target.Name(), Dir: w.Dir, Root: w.Root.Dir, Cwd: x.cwd,
		Input: x.input, Overrides: x.overrides, PID: os.Getpid(), StartedAt: now, Budget: x.budget.Record(),
		ResumedFrom: x.resumedFrom(), Carried: x.resume.carriedRecord(), AttemptOf: os.Getenv(temporalapi.EnvRun),
	})
	if err == nil {
		x.trace = tracing.Start(os.Getenv, x.warn, id, x.target.Name(), now)
	}
	return err
}

// resumedFrom is the execution this one resumes, "" for a first run.
func (x *execution) resumedFrom() string {
	if x.resume == nil {
		return ""
	}
	return x.resume.from
}

// warn logs a problem that does not change how the run ends.
func (x *execution) warn(msg string) { x.log.Warn(msg) }

// end writes the run record's final status, then exports the run's trace
// from the completed record.
func (x *execution) end(f records.Final) error {
	f.Resume = x.resume.report(f.Resume)
	err := x.record.Finish(f)
	x.trace.Finish(f.Status, f.EndedAt, f.Tree, filepath.Join(x.record.Dir(), runs.EventsFile), x.stderr, x.warn)
	return err
}

func newExecutionID(now time.Time) (string, error) {
	id, err := records.NewExecutionID(now, rand.Reader)
	if err != nil {
		return "", clierr.New(errcode.CodeInternal, "%v", err).Wrap(err)
	}
	return id, nil
}

// run builds when needed, runs the workflow and records how it ended. It
// returns the output, or the error to report.
func (x *execution) run(ctx context.Context) (json.RawMessage, *clierr.Error) {
	if err := x.target.Prepare(ctx, x.log, x.stderr); err != nil {
		x.early.abort()
		ce := clierr.As(err)
		return nil, x.finish(failure(ce, nil))
	}
	if err := x.checkMCPAuth(ctx); err != nil {
		x.early.abort()
		return nil, x.finish(failure(clierr.As(err), nil))
	}
	if ce := x.startJournal(); ce != nil {
		x.early.abort()
		return nil, x.finish(failure(ce, nil))
	}
	node, ce := x.early, x.earlyErr
	if node == nil && ce == nil {
		node, ce = x.newRunner(ctx)
	}
	if ce != nil {
		return nil, x.finish(failure(ce, nil))
	}
	doc, err := x.invocationDocument(node.key)
	if err != nil {
		node.abort()
		return nil, x.finish(failure(clierr.As(err), nil))
	}
	runCtx, cancelRun := context.WithCancel(ctx)
	defer cancelRun()
	var watcher *budget.Watcher
	if x.budget.Set() {
		watcher = budget.Watch(runCtx, filepath.Join(x.record.Dir(), runs.EventsFile), x.budget, x.carried(), runs.DefaultPollInterval, cancelRun)
	}
	if node.Runner == nil {
		if ce := node.start(x.target.Name()); ce != nil {
			return nil, x.finish(failure(ce, nil))
		}
	}
	check := startOutputCheck(x.target.Workflow.Dir, x.target.Name(), x.validator)
	defer check.close()
	out, ahead := x.await(runCtx, node, doc, check)
	cancelRun()
	if watcher != nil {
		// A run its budget cancelled fails with budget_exceeded; so does
		// one that ended on its own before the watcher saw the usage that
		// crossed it (a last turn's), so that the verdict does not depend
		// on when the watcher looked. Its agents' work is in the journal:
		// runs resume with a larger budget replays it.
		if spent, crossed := watcher.Stop(); crossed && ctx.Err() == nil && out != nil {
			if o := interpret(out, x.target.Name()); out.Cancelled || o.err == nil {
				return nil, x.finish(failure(budget.Exceeded(x.budget, spent, x.target.Name()), o.tree))
			}
		}
	}
	if out.IgnoredBytes > 0 {
		x.log.Warn("ignored what something other than the runtime wrote to the result channel", "bytes", out.IgnoredBytes)
	}
	o := interpret(out, x.target.Name())
	if o.err != nil {
		return nil, x.finish(o)
	}
	ce = ahead.outputCheck(check, o.output)
	check.close()
	if ce != nil {
		return nil, x.finish(failure(ce, o.tree))
	}
	if ferr := x.end(o.final(0)); ferr != nil {
		x.log.Warn("the run succeeded, but its record is incomplete", "error", ferr)
	}
	return o.output, nil
}

// checkedAhead is the output check of a succeeded result, made while node
// exited; checked is false when none was made.
type checkedAhead struct {
	checked bool
	err     *clierr.Error
}

// outputCheck is the output check's result: the one made ahead, else one
// made now.
func (a checkedAhead) outputCheck(check *outputCheck, output json.RawMessage) *clierr.Error {
	if a.checked {
		return a.err
	}
	return check.check(output)
}

// await sends node its invocation and waits for it to exit. node reports
// its result before it exits, which takes it milliseconds more (writing
// its compile cache, ending its event loop): meanwhile a succeeded output
// is checked and its files of the run record are written, so that only
// the status is left to write once node is gone. The status is still
// written last, and only after node's exit: what the run ends with is
// decided as before, from the whole outcome; a run that ends otherwise
// after all (its budget crossed) rewrites those files (records.Run.Finish).
func (x *execution) await(ctx context.Context, node *runner, doc []byte, check *outputCheck) (*supervise.Outcome, checkedAhead) {
	done := make(chan *supervise.Outcome, 1)
	go func() { done <- node.Run(ctx, doc) }()
	select {
	case out := <-done:
		return out, checkedAhead{}
	case <-node.ResultRead():
	}
	var ahead checkedAhead
	if o := interpret(&supervise.Outcome{Result: node.ReadResult()}, x.target.Name()); o.err == nil {
		ahead = checkedAhead{checked: true, err: check.check(o.output)}
		check.close() // its process ends while node does
		if ahead.err == nil {
			// A failure here leaves the files to Finish, which reports it.
			_ = x.record.WriteResult(o.final(0))
		}
	}
	return <-done, ahead
}

// runnerInvocation is the document the SDK runner reads from stdin.
type runnerInvocation struct {
	ExecutionID string        `json:"executionId"`
	Workflow    string        `json:"workflow"`
	Entry       string        `json:"entry"`
	RootDir     string        `json:"rootDir"`
	RunDir      string        `json:"runDir"`
	Budget      budget.Limits `json:"budget"`
	// Carried is what the executions the run resumes spent: budget.spent() counts it.
	Carried   records.Spent                     `json:"budgetCarried"`
	ResultKey string                            `json:"resultKey"`
	Input     json.RawMessage                   `json:"input"`
	Overrides json.RawMessage                   `json:"overrides"`
	Workflows map[string]preparation.TableEntry `json:"workflows"`
	Resume    *replaySource                     `json:"resume,omitempty"`
}

func (x *execution) invocationDocument(resultKey []byte) ([]byte, error) {
	doc, err := json.Marshal(runnerInvocation{
		ExecutionID: x.id, Workflow: x.target.Name(), Entry: x.target.Entry(), RootDir: x.target.Root.Root.Dir,
		RunDir: x.record.Dir(), Budget: x.budget, Carried: x.carried(), ResultKey: hex.EncodeToString(resultKey),
		Input: x.input, Overrides: x.overrides, Workflows: x.target.Table(), Resume: x.resume.source(),
	})
	if err != nil {
		return nil, clierr.New(runapi.CodeConfigInvalid, "the agents or decision section of a workflow.yaml in %s cannot be passed to the runtime: %v", x.target.Root.Root.Dir, err).Wrap(err)
	}
	return doc, nil
}

// finish records a failed outcome and returns its error for the CLI.
func (x *execution) finish(o outcome) *clierr.Error {
	if err := x.end(o.final(o.err.Exit)); err != nil {
		x.log.Warn("the run record is incomplete", "error", err)
	}
	return o.err
}

// describe adds the execution ID to err; in text mode, the cause chain and
// the run record's directory join the message.
func (x *execution) describe(err *clierr.Error) error {
	details := map[string]any{}
	for k, v := range err.Details {
		details[k] = v
	}
	details["executionId"] = x.id
	details["workflow"] = x.target.Name()
	out := *err
	out.Details = details
	if !x.json {
		out.Message = textMessage(err) + "\n  run record: " + x.record.Dir()
	}
	return &out
}

// budgetLimits is the run's budget: workflow.yaml's budget section, with
// the limits the flags give instead.
func budgetLimits(cmd *cli.Command, target *preparation.Target) (budget.Limits, error) {
	l, err := budget.FromManifest(target.Workflow.Manifest.Sections["budget"], filepath.Join(target.Workflow.Dir, "workflow.yaml"))
	if err != nil {
		return l, err
	}
	return l.Override(budgetFlags(cmd))
}

// budgetFlags are the limits --budget-usd and --budget-tokens give.
func budgetFlags(cmd *cli.Command) budget.Flags {
	var flags budget.Flags
	if cmd.IsSet(budgetUSDFlag) {
		usd := cmd.Float(budgetUSDFlag)
		flags.USD = &usd
	}
	if cmd.IsSet(budgetTokensFlag) {
		tokens := int64(cmd.Int(budgetTokensFlag))
		flags.Tokens = &tokens
	}
	return flags
}
