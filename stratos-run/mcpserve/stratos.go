package mcpserve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/procgroup"
	"github.com/stratoscli/stratos/shared/sibling"
)

// Tools of Stratos the server drives. Tools never import each other (see
// shared/sibling): the server is one more client of their --json output, so
// a run it starts is an ordinary `stratos run` with its own process and run
// record, which `stratos runs` lists, shows and stops like any other.
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

func (s stratos) list(ctx context.Context) (WorkflowList, error) {
	var l WorkflowList
	err := sibling.RunJSON(ctx, toolDiscover, []string{"list", "--json"}, nil, &l, s.stderr)
	if l.Workflows == nil {
		l.Workflows = []Workflow{}
	}
	return l, err
}

// describe builds the workflow when it is not fresh, as `stratos describe`
// does, and returns its manual and schemas.
func (s stratos) describe(ctx context.Context, name string) (Description, error) {
	var d Description
	err := sibling.RunJSON(ctx, toolBuild, []string{"describe", name, "--json"}, nil, &d, s.stderr)
	return d, err
}

func (s stratos) show(ctx context.Context, id string) (Run, error) {
	var r Run
	err := sibling.RunJSON(ctx, toolRun, []string{"runs", "show", id, "--json"}, nil, &r, s.stderr)
	return r, err
}

// runsOf lists the runs of one workflow.
func (s stratos) runsOf(ctx context.Context, workflow string) ([]Run, error) {
	var l struct {
		Runs []Run `json:"runs"`
	}
	err := sibling.RunJSON(ctx, toolRun, []string{"runs", "list", "--workflow", workflow, "--json"}, nil, &l, s.stderr)
	return l.Runs, err
}

func (s stratos) stop(ctx context.Context, id string) (Stopped, error) {
	var st Stopped
	err := sibling.RunJSON(ctx, toolRun, []string{"runs", "stop", id, "--json"}, nil, &st, s.stderr)
	return st, err
}

// logs returns the events the run has recorded so far (`stratos runs logs
// --json`, one event per line).
func (s stratos) logs(ctx context.Context, id string) ([]eventapi.Event, error) {
	path, err := sibling.Find(toolRun)
	if err != nil {
		return nil, err
	}
	var stdout bytes.Buffer
	cmd := exec.CommandContext(ctx, path, "runs", "logs", id, "--json")
	cmd.Stdout, cmd.Stderr = &stdout, s.stderr
	if err := procgroup.Run(cmd, procgroup.Options{}); err != nil {
		return nil, envelopeError(stdout.Bytes(), err, "runs logs")
	}
	events := []eventapi.Event{}
	err = eachEvent(&stdout, func(e eventapi.Event) { events = append(events, e) })
	return events, err
}

// eachEvent reads the events `stratos runs logs --json` prints on r (lines
// of any vocabulary version) and calls f with each; lines that are not
// events are skipped (a line being written as it is read).
func eachEvent(r io.Reader, f func(eventapi.Event)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		if e, err := eventapi.Decode(sc.Bytes()); err == nil {
			f(e)
		}
	}
	return sc.Err()
}

// envelopeError turns a tool's failure into its error envelope's error, or
// a tool_failed error when stdout carries none.
func envelopeError(stdout []byte, runErr error, what string) error {
	var env clierr.Envelope
	if json.Unmarshal(stdout, &env) == nil && env.Error.Code != "" {
		return &clierr.Error{Code: env.Error.Code, Message: env.Error.Message, Details: env.Error.Details, Exit: clierr.ExitFailed}
	}
	return clierr.New(errcode.CodeToolFailed, "stratos-run %s: %v", what, runErr).Wrap(runErr)
}

// errorf is a failure of the server itself.
func errorf(format string, args ...any) error {
	return clierr.New(errcode.CodeInternal, "%s", fmt.Sprintf(format, args...))
}
