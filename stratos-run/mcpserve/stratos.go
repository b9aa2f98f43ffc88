package mcpserve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/toolcall"
)

// Tools of Stratos the server drives. Tools never import each other (see
// shared/toolcall): the server is one more client of their --json output,
// so a run it starts is an ordinary `stratos run` with its own process and
// run record, which `stratos runs` lists, shows and stops like any other.
const (
	toolDiscover = "stratos-discover"
	toolBuild    = "stratos-build"
	toolRun      = "stratos-run"
)

// stratos calls the other Stratos tools. Their stderr (build progress, the
// runtime's logs) goes to stderr, never to the MCP stream.
type stratos struct {
	stderr io.Writer
}

// call is a call of tool with args.
func (s stratos) call(tool string, args ...string) toolcall.Call {
	return toolcall.Call{Tool: tool, Args: args, Stderr: s.stderr}
}

func (s stratos) list(ctx context.Context) (WorkflowList, error) {
	var l WorkflowList
	err := toolcall.Run(ctx, s.call(toolDiscover, "list", "--json"), &l)
	if l.Workflows == nil {
		l.Workflows = []Workflow{}
	}
	return l, err
}

// describe builds the workflow when it is not fresh, as `stratos describe`
// does, and returns its manual and schemas.
func (s stratos) describe(ctx context.Context, name string) (Description, error) {
	var d Description
	err := toolcall.Run(ctx, s.call(toolBuild, "describe", name, "--json"), &d)
	return d, err
}

func (s stratos) show(ctx context.Context, id string) (Run, error) {
	var r Run
	err := toolcall.Run(ctx, s.call(toolRun, "runs", "show", id, "--json"), &r)
	return r, err
}

// runsOf lists the runs of one workflow.
func (s stratos) runsOf(ctx context.Context, workflow string) ([]Run, error) {
	var l struct {
		Runs []Run `json:"runs"`
	}
	err := toolcall.Run(ctx, s.call(toolRun, "runs", "list", "--workflow", workflow, "--json"), &l)
	return l.Runs, err
}

func (s stratos) stop(ctx context.Context, id string) (Stopped, error) {
	var st Stopped
	err := toolcall.Run(ctx, s.call(toolRun, "runs", "stop", id, "--json"), &st)
	return st, err
}

// logs returns the events the run has recorded so far (`stratos runs logs
// --json`, one event per line).
func (s stratos) logs(ctx context.Context, id string) ([]eventapi.Event, error) {
	events := []eventapi.Event{}
	err := toolcall.Lines(ctx, s.call(toolRun, "runs", "logs", id, "--json"), eachEvent(func(e eventapi.Event) { events = append(events, objectDetails(e)) }))
	if err != nil {
		return nil, err
	}
	return events, nil
}

// objectDetails leaves out the details of an event of a kind this version
// does not know when they are no JSON object (a line of a newer writer, or
// a damaged one): run_logs' output schema says details are an object, and
// a client checks the result against it.
func objectDetails(e eventapi.Event) eventapi.Event {
	if u, ok := e.Details.(*eventapi.Unknown); ok && len(u.Raw) > 0 && !bytes.HasPrefix(bytes.TrimSpace(u.Raw), []byte("{")) {
		e.Details = nil
	}
	return e
}

// eachEvent reads a line `stratos runs logs --json` prints (of any
// vocabulary version) and calls f with its event; a line that is no event
// is skipped (a line being written as it is read, the error envelope of a
// failed call, which the call returns).
func eachEvent(f func(eventapi.Event)) func(line []byte) {
	return func(line []byte) {
		if e, err := eventapi.Decode(line); err == nil {
			f(e)
		}
	}
}

// errorf is a failure of the server itself.
func errorf(format string, args ...any) error {
	return clierr.New(errcode.CodeInternal, "%s", fmt.Sprintf(format, args...))
}

// start starts the workflow in the background, as `stratos run --detach`:
// the run is no child of the server, so it outlives the call, the session
// and the server, like any detached run.
func (s stratos) start(ctx context.Context, name string, input, overrides json.RawMessage) (Started, error) {
	call := s.call(toolRun, append(runArgs(name, overrides), "--detach")...)
	call.Input = input
	st := Started{Workflow: name}
	err := toolcall.Run(ctx, call, &st)
	return st, err
}

// result waits until the run has ended, passing the events it records to
// onEvent, and returns its output as `stratos runs result --json` prints
// it, or the run's own error. Cancelling ctx stops the waiting, not the
// run.
func (s stratos) result(ctx context.Context, id string, onEvent func(eventapi.Event)) (RunResult, error) {
	r, err := s.show(ctx, id)
	if err != nil {
		return RunResult{}, err
	}
	s.follow(ctx, r.ExecutionID, onEvent)
	res := RunResult{ExecutionID: r.ExecutionID, Workflow: r.Workflow}
	err = toolcall.Run(ctx, s.call(toolRun, "runs", "result", r.ExecutionID, "--json"), &res.Output)
	return res, err
}
