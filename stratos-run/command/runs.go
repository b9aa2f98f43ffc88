package command

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/urfave/cli/v3"

	"github.com/stratoscli/stratos/shared/cliapp"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/shared/logging"
	"github.com/stratoscli/stratos/stratos-run/records"
	"github.com/stratoscli/stratos/stratos-run/runs"
)

func runsCommand() *cli.Command {
	list := runsListCommand()
	return &cli.Command{
		Name:      "runs",
		Usage:     "list, show, follow, stop and prune runs",
		UsageText: "stratos runs [list|show|logs|result|stop|prune] ...",
		Description: cliapp.Lines(
			"Reads the run records in ~/.stratos/runs. Every command first reconciles: a record that",
			"says running while its process (pid and start time) is gone becomes crashed; for a run on",
			"the Temporal engine, the Temporal server the record names is asked how the run is instead.",
			"A run is named by its execution ID or a unique prefix of it.",
			"",
			"Exit codes: 0 ok; 1 failed (e.g. stop of a run that is not running); 2 bad arguments,",
			"unknown or ambiguous run ID; 130 interrupted.",
		),
		Flags:    list.Flags,
		Action:   list.Action,
		Commands: []*cli.Command{list, runsShowCommand(), runsLogsCommand(), runsResultCommand(), runsStopCommand(), runsResumeCommand(), runsPruneCommand()},
	}
}

func runsListCommand() *cli.Command {
	return &cli.Command{
		Name:      "list",
		Usage:     "list runs, newest first",
		UsageText: "stratos runs [list] " + listUsage,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "status", Usage: "only runs with this status: " + strings.Join(records.Statuses, ", ")},
			&cli.StringFlag{Name: "workflow", Usage: "only runs of this workflow"},
			&cli.StringFlag{Name: "since", Usage: "only runs started since: a duration back from now (90m, 2h, 7d), an RFC 3339 time or a date"},
			&cli.IntFlag{Name: "limit", Usage: "only the newest N runs that pass the other filters"},
			cliapp.JSONFlag(),
		},
		Action: listRuns,
	}
}

func runsShowCommand() *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "show a run: status, invocation, output or error, event counts, the runs it resumes and that resume it, its agents by phase",
		UsageText: "stratos runs show <id> " + showUsage,
		Description: cliapp.Lines(
			"With --timeline, shows instead the run's workflow invocations and agents over time: a row",
			"per invocation and per agent in order of start, with its harness/model, phase, start,",
			"duration, tokens, cost and status, then its bar on a time axis from the run's first event",
			"(= running, . waiting for an admission slot, x where an execute failed). The chart is",
			"--width columns wide; with --json, the rows as data (offsets in ms from the first event).",
		),
		Flags: []cli.Flag{
			cliapp.JSONFlag(),
			&cli.BoolFlag{Name: "timeline", Usage: "show the run's invocations and agents over time"},
			&cli.IntFlag{Name: "width", Value: runs.DefaultTimelineWidth, Usage: "the width of the --timeline chart in columns"},
		},
		Action: showRun,
	}
}

func runsLogsCommand() *cli.Command {
	return &cli.Command{
		Name:      "logs",
		Usage:     "print a run's events; --follow until the run ends",
		UsageText: "stratos runs logs <id> [--follow] [--json]",
		Description: cliapp.Lines(
			"Prints the events of events.jsonl as text, one per line. With --json, prints them as",
			"they are recorded: JSON Lines, one event object per line. A line of the file that is not",
			"an event (not one JSON object, or longer than 16 MiB) is not printed: a warning on stderr",
			"names the file and the line number.",
		),
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "follow", Aliases: []string{"f"}, Usage: "keep printing new events until the run is no longer running"},
			&cli.BoolFlag{Name: "json", Usage: "print the events as recorded (JSON Lines)"},
		},
		Action: runLogs,
	}
}

func runsStopCommand() *cli.Command {
	return &cli.Command{
		Name:      "stop",
		Usage:     "cancel a running run (SIGTERM, as Ctrl-C) and wait for it to end",
		UsageText: "stratos runs stop <id> [--json]",
		Description: cliapp.Lines(
			"Signals the run's process only when it is still that run (same pid and start time),",
			fmt.Sprintf("then waits up to %s for it to end. Exit 0 once it ended; 1 when it is not running.", runs.DefaultStopWait),
		),
		Flags:  []cli.Flag{cliapp.JSONFlag()},
		Action: stopRun,
	}
}

// openStore opens ~/.stratos/runs; every runs command reconciles as it reads.
func openStore() (*runs.Store, error) {
	dir, err := records.Dir()
	if err != nil {
		return nil, clierr.New(runapi.CodeRunsUnreadable, "%v", err).Wrap(err)
	}
	return &runs.Store{Dir: dir}, nil
}

// askTemporal lets the store ask Temporal about runs on the Temporal
// engine whose submitting process is gone, saying on stderr when it
// cannot.
func askTemporal(cmd *cli.Command, store *runs.Store) {
	store.Temporal = newTemporalRuns(logging.New("stratos", cmd.Root().ErrWriter))
}

// reconcileStale marks the runs whose process died without a final status
// as crashed; `stratos run` does it before it starts. Problems are logged:
// they must not stop the run.
func reconcileStale(dir string, log hclog.Logger) {
	crashed, problems, err := (&runs.Store{Dir: dir}).ReconcileLive()
	if err != nil {
		problems = append(problems, err)
	}
	for _, id := range crashed {
		log.Debug("reconciled a run whose process is gone", "executionId", id, "status", records.StatusCrashed)
	}
	for _, p := range problems {
		log.Warn("could not reconcile a run record", "error", p)
	}
}

// resolveArg opens the store and resolves the one <id> argument.
func resolveArg(cmd *cli.Command, usage string) (*runs.Store, string, error) {
	if err := cliapp.ExactArgs(cmd, 1, 1, usage); err != nil {
		return nil, "", err
	}
	store, err := openStore()
	if err != nil {
		return nil, "", err
	}
	askTemporal(cmd, store)
	id, err := store.Resolve(cmd.Args().First())
	return store, id, err
}

func listRuns(ctx context.Context, cmd *cli.Command) error {
	if err := cliapp.ExactArgs(cmd, 0, 0, "[list] "+listUsage); err != nil {
		return err
	}
	f, err := listFilter(cmd)
	if err != nil {
		return err
	}
	store, err := openStore()
	if err != nil {
		return err
	}
	askTemporal(cmd, store)
	list, problems, err := store.List(f)
	if err != nil {
		return err
	}
	warn(cmd, problems)
	if list == nil {
		list = []runs.Run{}
	}
	if cmd.Bool("json") {
		return runs.WriteListJSON(cmd.Root().Writer, list)
	}
	writeRunsTable(cmd.Root().Writer, list)
	return nil
}

const listUsage = "[--status S] [--workflow W] [--since T] [--limit N] [--json]"

// listFilter reads the filter flags of `runs list`.
func listFilter(cmd *cli.Command) (runs.Filter, error) {
	f := runs.Filter{Status: cmd.String("status"), Workflow: cmd.String("workflow"), Limit: int(cmd.Int("limit"))}
	if f.Status != "" && !slices.Contains(records.Statuses, f.Status) {
		return f, clierr.Usage(errcode.CodeUsage, "unknown status %q: one of %s", f.Status, strings.Join(records.Statuses, ", "))
	}
	if f.Limit < 0 {
		return f, clierr.Usage(errcode.CodeUsage, "--limit %d: must be 0 (all) or more", f.Limit)
	}
	if v := cmd.String("since"); v != "" {
		since, err := runs.ParseSince(v, time.Now())
		if err != nil {
			return f, clierr.Usage(errcode.CodeUsage, "--since: %v", err)
		}
		f.Since = since
	}
	return f, nil
}

func warn(cmd *cli.Command, problems []error) {
	log := logging.New("stratos", cmd.Root().ErrWriter)
	for _, p := range problems {
		log.Warn("skipped a run record", "error", p)
	}
}

func writeRunsTable(w io.Writer, list []runs.Run) {
	if len(list) == 0 {
		fmt.Fprintln(w, "no runs")
		return
	}
	// An ENGINE column only beside runs of another engine than local:
	// the table of local runs stays as it always was.
	engines := slices.ContainsFunc(list, func(r runs.Run) bool { return r.Engine != "" })
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	header := "ID\tWORKFLOW\tSTATUS\tSTARTED\tDURATION\tPID"
	if engines {
		header += "\tENGINE"
	}
	fmt.Fprintln(tw, header)
	for _, r := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d", r.ExecutionID, r.Workflow, r.Status,
			r.StartedAt.Local().Format(time.DateTime), durationText(r.DurationMs), r.PID)
		if engines {
			fmt.Fprintf(tw, "\t%s", engineName(r.Engine))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

// engineName is a run's engine for people: local when the run names none.
func engineName(e string) string {
	if e == "" {
		return "local"
	}
	return e
}

func durationText(ms int64) string {
	d := time.Duration(ms) * time.Millisecond
	if d < time.Minute {
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

const showUsage = "[--timeline [--width N]] [--json]"

func showRun(ctx context.Context, cmd *cli.Command) error {
	store, id, err := resolveArg(cmd, "<id> "+showUsage)
	if err != nil {
		return err
	}
	if cmd.Bool("timeline") {
		return showTimeline(cmd, store, id)
	}
	if cmd.IsSet("width") {
		return clierr.Usage(errcode.CodeUsage, "--width %d: only with --timeline", cmd.Int("width"))
	}
	d, err := store.Show(id)
	if err != nil {
		return err
	}
	if cmd.Bool("json") {
		return clierr.PrintJSON(cmd.Root().Writer, d)
	}
	writeDetails(cmd.Root().Writer, d)
	return nil
}

// showTimeline writes run id's timeline: a chart, or its rows as JSON.
func showTimeline(cmd *cli.Command, store *runs.Store, id string) error {
	width := int(cmd.Int("width"))
	if width < 1 {
		return clierr.Usage(errcode.CodeUsage, "--width %d: must be 1 or more", width)
	}
	tl, err := store.Timeline(id)
	if err != nil {
		return err
	}
	if cmd.Bool("json") {
		return clierr.PrintJSON(cmd.Root().Writer, tl)
	}
	runs.WriteTimeline(cmd.Root().Writer, tl, width)
	return nil
}

func writeDetails(w io.Writer, d *runs.Details) {
	fmt.Fprintf(w, "run       %s\n", d.ExecutionID)
	fmt.Fprintf(w, "workflow  %s\n", d.Workflow)
	fmt.Fprintf(w, "status    %s", d.Status)
	if d.ExitCode != nil {
		fmt.Fprintf(w, " (exit %d)", *d.ExitCode)
	}
	fmt.Fprintln(w)
	rec := d.Reconciled
	if rec != nil {
		fmt.Fprintf(w, "          noticed %s: %s\n", rec.At.Local().Format(time.DateTime), rec.Reason)
	}
	fmt.Fprintf(w, "started   %s\n", d.StartedAt.Local().Format(time.DateTime))
	if rec != nil && rec.InferredEnd != nil {
		fmt.Fprintf(w, "ended     %s (inferred: %s last modified)\n", rec.InferredEnd.Local().Format(time.DateTime), rec.InferredFrom)
	}
	fmt.Fprintf(w, "duration  %s\n", durationText(d.DurationMs))
	fmt.Fprintf(w, "pid       %d\n", d.PID)
	if t := d.Invocation.Temporal; t != nil {
		fmt.Fprintf(w, "engine    temporal: workflow %s on %s (namespace %s, task queue %s)\n", t.WorkflowID, t.Address, t.Namespace, t.TaskQueue)
	}
	fmt.Fprintf(w, "cwd       %s\n", d.Invocation.Cwd)
	fmt.Fprintf(w, "record    %s\n", d.Dir)
	fmt.Fprintf(w, "input     %s\n", compact(d.Invocation.Input))
	if d.Output != nil {
		fmt.Fprintf(w, "output    %s\n", compact(d.Output))
	}
	if d.Error != nil {
		fmt.Fprintf(w, "error     %s\n", errorText(d.Error))
	}
	fmt.Fprintf(w, "events    %d%s\n", d.Events.Total, countsText(d.Events.ByType))
	if d.Usage != nil {
		fmt.Fprintf(w, "usage     %s\n", usageText(d.Usage.Run))
	}
	if d.Budget != nil {
		fmt.Fprintf(w, "budget    %s\n", budgetText(*d.Budget))
	}
	writeResumeChain(w, d)
	runs.WritePhases(w, d.Phases)
}

// writeResumeChain writes the run's links to the runs it resumes and that
// resume it: the run it resumes and what replaying that run's journal came
// to (the calls replayed and what they had cost, the workflows whose code
// changed, where the run first took another way), then the executions that
// resumed it.
func writeResumeChain(w io.Writer, d *runs.Details) {
	if d.ResumedFrom != "" {
		fmt.Fprintf(w, "resumed   from %s", d.ResumedFrom)
		if r := d.Resume; r != nil {
			fmt.Fprintf(w, ": %d call(s) replayed", r.ReplayedCalls)
			if u := r.ReplayedUsage; u != nil {
				fmt.Fprintf(w, " (they had used %d tokens, $%.4f)", u.Tokens, u.USD)
			}
		}
		fmt.Fprintln(w)
	}
	if r := d.Resume; r != nil {
		if len(r.ChangedWorkflows) > 0 {
			fmt.Fprintf(w, "          code changed since: %s\n", strings.Join(r.ChangedWorkflows, ", "))
		}
		for _, v := range r.Divergences {
			fmt.Fprintf(w, "          diverged in %s at %s: %s\n", v.Path, v.Call, v.Reason)
		}
	}
	if len(d.ResumedBy) > 0 {
		fmt.Fprintf(w, "resumed   by %s\n", strings.Join(d.ResumedBy, ", "))
	}
}

// budgetText is each limit of a budget with what was spent against it,
// e.g. "$0.0200 of $0.0100 (200%); 1500 of 100000 tokens (2%)".
func budgetText(b runs.BudgetUse) string {
	var parts []string
	if b.Limits.USD > 0 {
		parts = append(parts, fmt.Sprintf("$%.4f of $%.4f (%.0f%%)", b.Spent.USD, b.Limits.USD, 100*b.Spent.USD/b.Limits.USD))
	}
	if b.Limits.Tokens > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d tokens (%.0f%%)", b.Spent.Tokens, b.Limits.Tokens, 100*float64(b.Spent.Tokens)/float64(b.Limits.Tokens)))
	}
	return strings.Join(parts, "; ")
}

// usageText is one usage figure for people: tokens, then the cost and its
// provenance.
func usageText(u runs.Usage) string {
	t := u.Tokens
	text := fmt.Sprintf("%d tokens (input %d, output %d, cache read %d, cache write %d, reasoning %d) in %d turn(s); ",
		t.Total(), t.Input, t.Output, t.CacheRead, t.CacheWrite, t.Reasoning, u.Turns)
	if u.Cost.Provenance == runs.CostUnknown {
		return text + fmt.Sprintf("cost $%.4f known, %d turn(s) without a cost", u.Cost.USD, u.Cost.UnknownTurns)
	}
	return text + fmt.Sprintf("cost $%.4f (%s)", u.Cost.USD, u.Cost.Provenance)
}

func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if len(raw) == 0 {
		return "null"
	}
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

// errorText is the code and message of error.json, or its JSON.
func errorText(raw json.RawMessage) string {
	var e struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &e) != nil || e.Message == "" {
		return compact(raw)
	}
	if e.Code == "" {
		return e.Message
	}
	return e.Code + ": " + e.Message
}

func countsText(byType map[string]int) string {
	if len(byType) == 0 {
		return ""
	}
	types := slices.Sorted(maps.Keys(byType))
	parts := make([]string, len(types))
	for i, t := range types {
		parts[i] = fmt.Sprintf("%s %d", t, byType[t])
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

func runLogs(ctx context.Context, cmd *cli.Command) error {
	store, id, err := resolveArg(cmd, "<id> [--follow] [--json]")
	if err != nil {
		return err
	}
	w := cmd.Root().Writer
	emit := func(line []byte) error {
		_, err := fmt.Fprintln(w, runs.EventText(line))
		return err
	}
	if cmd.Bool("json") {
		emit = func(line []byte) error {
			_, err := fmt.Fprintf(w, "%s\n", line)
			return err
		}
	}
	log := logging.New("stratos", cmd.Root().ErrWriter)
	opts := runs.LogOptions{Follow: cmd.Bool("follow"), Unreadable: func(u runs.UnreadableLine) error {
		log.Warn("skipped an unreadable line", "file", u.File, "line", u.Line, "reason", u.Reason)
		return nil
	}}
	return store.Logs(ctx, id, opts, emit)
}

// stopResult is the JSON document of `runs stop`.
type stopResult struct {
	Run runs.Run `json:"run"`
}

func stopRun(ctx context.Context, cmd *cli.Command) error {
	store, id, err := resolveArg(cmd, "<id> [--json]")
	if err != nil {
		return err
	}
	r, err := store.Stop(ctx, id, runs.StopOptions{})
	if err != nil {
		return err
	}
	if cmd.Bool("json") {
		return clierr.PrintJSON(cmd.Root().Writer, stopResult{Run: r})
	}
	fmt.Fprintf(cmd.Root().Writer, "stopped %s: %s\n", r.ExecutionID, r.Status)
	return nil
}

func runsResultCommand() *cli.Command {
	return &cli.Command{
		Name:      "result",
		Usage:     "print a finished run's output JSON; exit as the run did",
		UsageText: "stratos runs result <id> [--json]",
		Description: cliapp.Lines(
			"Prints output.json of a succeeded run (exit 0). For a run that failed or was cancelled,",
			"reports the run's own error and exits with the run's exit code (1, 2 or 130); a run that",
			"is still running (run_not_finished) or crashed (run_crashed) is exit 1.",
		),
		Flags:  []cli.Flag{cliapp.JSONFlag()},
		Action: runResult,
	}
}

func runResult(ctx context.Context, cmd *cli.Command) error {
	store, id, err := resolveArg(cmd, "<id> [--json]")
	if err != nil {
		return err
	}
	out, err := store.Result(id)
	if err != nil {
		return err
	}
	return clierr.PrintJSON(cmd.Root().Writer, out)
}

func runsPruneCommand() *cli.Command {
	return &cli.Command{
		Name:      "prune",
		Usage:     "remove the records of finished runs",
		UsageText: "stratos runs prune [--older-than D] [--keep N] [--dry-run] [--json]",
		Description: cliapp.Lines(
			"Removes the record of every finished run that passes all the criteria given: started",
			"longer ago than --older-than, and not among the newest --keep runs. At least one is",
			"required. A running run is never removed (a run whose process is gone is reconciled as",
			"crashed first, and counts as finished).",
		),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "older-than", Usage: "only runs started longer ago than this (90m, 2h, 7d)"},
			&cli.IntFlag{Name: "keep", Usage: "keep the newest N runs, running ones included"},
			&cli.BoolFlag{Name: "dry-run", Usage: "only list the runs that would be removed"},
			cliapp.JSONFlag(),
		},
		Action: pruneRuns,
	}
}

// pruneResult is the JSON document of `runs prune`.
type pruneResult struct {
	Pruned []runs.Run `json:"pruned"`
	DryRun bool       `json:"dryRun"`
}

func pruneRuns(ctx context.Context, cmd *cli.Command) error {
	if err := cliapp.ExactArgs(cmd, 0, 0, "[--older-than D] [--keep N] [--dry-run] [--json]"); err != nil {
		return err
	}
	opts, err := pruneOptions(cmd)
	if err != nil {
		return err
	}
	store, err := openStore()
	if err != nil {
		return err
	}
	pruned, problems, err := store.Prune(opts)
	if err != nil {
		return err
	}
	warn(cmd, problems)
	if pruned == nil {
		pruned = []runs.Run{}
	}
	if cmd.Bool("json") {
		return clierr.PrintJSON(cmd.Root().Writer, pruneResult{Pruned: pruned, DryRun: opts.DryRun})
	}
	verb := "removed"
	if opts.DryRun {
		verb = "would remove"
	}
	for _, r := range pruned {
		fmt.Fprintf(cmd.Root().Writer, "%s %s (%s, %s)\n", verb, r.ExecutionID, r.Workflow, r.Status)
	}
	fmt.Fprintf(cmd.Root().ErrWriter, "%s %d run(s)\n", verb, len(pruned))
	return nil
}

func pruneOptions(cmd *cli.Command) (runs.PruneOptions, error) {
	opts := runs.PruneOptions{Keep: -1, DryRun: cmd.Bool("dry-run")}
	if !cmd.IsSet("older-than") && !cmd.IsSet("keep") {
		return opts, clierr.Usage(errcode.CodeUsage, "runs prune needs --older-than, --keep or both (it never removes everything by default)")
	}
	if cmd.IsSet("keep") {
		opts.Keep = int(cmd.Int("keep"))
		if opts.Keep < 0 {
			return opts, clierr.Usage(errcode.CodeUsage, "--keep %d: must be 0 or more", opts.Keep)
		}
	}
	if cmd.IsSet("older-than") {
		d, err := runs.ParseAge(cmd.String("older-than"))
		if err != nil {
			return opts, clierr.Usage(errcode.CodeUsage, "--older-than: %v", err)
		}
		opts.OlderThan = d
	}
	return opts, nil
}
