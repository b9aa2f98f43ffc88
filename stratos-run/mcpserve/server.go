// Package mcpserve is `stratos mcp serve`: an MCP server through which a
// coding agent lists, describes, runs and watches the workflows of the
// project of its working directory (and the user root). It drives the other
// Stratos tools through their --json output, so every run it starts is an
// ordinary run: recorded, listed by `stratos runs`, stopped the usual way.
package mcpserve

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/contract/runapi"
	"github.com/stratoscli/stratos/shared/jsonvalidate/remote"
	"github.com/stratoscli/stratos/shared/jsonvalidate/verdict"
	"github.com/stratoscli/stratos/shared/version"
)

// Options configures a server.
type Options struct {
	// Stderr receives the other tools' progress and logs.
	Stderr io.Writer
	// ToolsPerWorkflow also offers each built workflow as its own tool.
	ToolsPerWorkflow bool
}

// Server is the MCP server with Stratos's tools.
type Server struct {
	mcp  *mcp.Server
	st   stratos
	opts Options

	mu      sync.Mutex
	wfTools map[string]bool // names of the wf_<name> tools offered now

	// closing is cancelled by Close; every run the server started ends
	// with it, and running counts them until they have. runMu orders
	// starting a run against Close.
	runMu   sync.Mutex
	closed  bool
	closing context.Context
	close   context.CancelFunc
	running sync.WaitGroup

	sessions sessionRuns

	val validator
}

// instructions tell the client's model what the server is for.
const instructions = "Stratos runs workflows of AI coding agents written in TypeScript. " +
	"list_workflows finds them, describe_workflow gives a workflow's manual and input schema, " +
	"run_workflow runs one and returns its output; start_workflow starts one in the background and run_result waits for its output; " +
	"run_status, run_logs and stop_run watch and stop runs."

// New returns a server with its tools registered.
func New(opts Options) (*Server, error) {
	s := &Server{st: stratos{stderr: opts.Stderr}, opts: opts, wfTools: map[string]bool{}}
	s.closing, s.close = context.WithCancel(context.Background())
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "stratos", Version: version.Version},
		&mcp.ServerOptions{Instructions: instructions, Capabilities: &mcp.ServerCapabilities{
			Tools: &mcp.ToolCapabilities{ListChanged: opts.ToolsPerWorkflow},
		}})
	if err := s.addTools(); err != nil {
		return nil, err
	}
	if opts.ToolsPerWorkflow {
		s.syncWorkflowTools(context.Background())
	}
	return s, nil
}

// Close cancels the runs the server started (SIGTERM, as Ctrl-C) and waits
// until they have ended, so that none outlives the server and each records
// how it ended.
func (s *Server) Close() {
	s.CancelRuns()
	s.running.Wait()
	s.val.close()
}

// CancelRuns cancels the runs the server started and refuses new ones,
// without waiting. The SDK ends a session only once its calls have
// returned, and run_workflow returns when its run ends: on SIGINT or
// SIGTERM the runs are cancelled first, so that the session can end.
func (s *Server) CancelRuns() {
	s.runMu.Lock()
	s.closed = true
	s.runMu.Unlock()
	s.close()
}

// admit counts a run about to start; false once the server is closing.
func (s *Server) admit() bool {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	if s.closed {
		return false
	}
	s.running.Add(1)
	return true
}

// MCP returns the server to connect transports to.
func (s *Server) MCP() *mcp.Server { return s.mcp }

func (s *Server) addTools() error {
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true}
	return firstErr(
		addTool(s.mcp, &s.val, &mcp.Tool{Name: "list_workflows", Annotations: readOnly,
			Description: "List the Stratos workflows of the project and the user root, with whether each is built."},
			func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (WorkflowList, error) {
				return s.st.list(ctx)
			}),
		addTool(s.mcp, &s.val, &mcp.Tool{Name: "describe_workflow",
			Description: "Describe a workflow: its manual and the JSON Schemas of its input and output. Builds it first when it is not fresh."},
			func(ctx context.Context, _ *mcp.CallToolRequest, in NameInput) (Description, error) {
				defer s.resyncAfter(ctx)
				return s.st.describe(ctx, in.Name)
			}),
		addTool(s.mcp, &s.val, &mcp.Tool{Name: "run_workflow",
			Description: "Run a workflow with an input matching its input schema and return its output. Builds it first when it is not fresh. Cancelling the call, or ending the session, cancels the run. For runs longer than the client waits for a call, use start_workflow and run_result."},
			s.runWorkflow),
		addTool(s.mcp, &s.val, &mcp.Tool{Name: "start_workflow",
			Description: "Start a workflow in the background, as run_workflow would run it, and return its execution ID at once. The run goes on when the call, the session or the server ends; run_result waits for its output, stop_run stops it."},
			s.startWorkflow),
		addTool(s.mcp, &s.val, &mcp.Tool{Name: "run_result", Annotations: readOnly,
			Description: "Wait until a run has ended and return its output, or its error. Cancelling the call stops the waiting, not the run; call it again to wait again."},
			s.runResult),
		addTool(s.mcp, &s.val, &mcp.Tool{Name: "run_status", Annotations: readOnly,
			Description: "Show a run: its status, and its output or error once it has ended."},
			func(ctx context.Context, _ *mcp.CallToolRequest, in RunRef) (RunStatus, error) {
				r, err := s.st.show(ctx, in.ID)
				return RunStatus{Run: r}, err
			}),
		addTool(s.mcp, &s.val, &mcp.Tool{Name: "run_logs", Annotations: readOnly,
			Description: "The events a run has recorded so far (agents, model turns, tool calls, logs)."},
			s.runLogs),
		addTool(s.mcp, &s.val, &mcp.Tool{Name: "stop_run",
			Description: "Stop a running run as Ctrl-C would: the workflow is cancelled and cleaned up. Returns how it ended."},
			func(ctx context.Context, _ *mcp.CallToolRequest, in RunRef) (Stopped, error) {
				return s.st.stop(ctx, in.ID)
			}),
	)
}

// resyncAfter is deferred by the tools that may build: with
// --tools-per-workflow, the wf_<name> tools follow the builds they made.
func (s *Server) resyncAfter(ctx context.Context) {
	if s.opts.ToolsPerWorkflow {
		s.syncWorkflowTools(context.WithoutCancel(ctx))
	}
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func (s *Server) runLogs(ctx context.Context, _ *mcp.CallToolRequest, in LogsInput) (RunLogs, error) {
	evs, err := s.st.logs(ctx, in.ID)
	if err != nil {
		return RunLogs{}, err
	}
	id := in.ID
	if r, err := s.st.show(ctx, in.ID); err == nil {
		id = r.ExecutionID
	}
	res := RunLogs{ExecutionID: id, Total: len(evs), Events: evs}
	if in.Limit > 0 && len(evs) > in.Limit {
		res.Events = evs[len(evs)-in.Limit:]
	}
	return res, nil
}

// runWorkflow describes the workflow (building it when it is not fresh),
// checks the input against its input schema, and only then runs it.
func (s *Server) runWorkflow(ctx context.Context, req *mcp.CallToolRequest, in RunInput) (RunResult, error) {
	defer s.resyncAfter(ctx)
	input, overrides, err := s.prepare(ctx, in)
	if err != nil {
		return RunResult{}, err
	}
	if !s.admit() {
		return RunResult{}, clierr.New(errcode.CodeInterrupted, "the server is shutting down; %s was not started", in.Name)
	}
	defer s.running.Done()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(s.closing, cancel)()
	if req.Session != nil {
		defer s.sessions.add(req.Session.ID(), cancel)()
	}
	return s.st.run(ctx, in.Name, input, overrides, progress(ctx, req))
}

// startWorkflow is runWorkflow that returns once the run has started: the
// run is detached, so neither the call's nor the session's end stops it.
func (s *Server) startWorkflow(ctx context.Context, _ *mcp.CallToolRequest, in RunInput) (Started, error) {
	defer s.resyncAfter(ctx)
	input, overrides, err := s.prepare(ctx, in)
	if err != nil {
		return Started{}, err
	}
	return s.st.start(ctx, in.Name, input, overrides)
}

// runResult waits for a run's end, with its events as progress, and
// returns its output or its error.
func (s *Server) runResult(ctx context.Context, req *mcp.CallToolRequest, in RunRef) (RunResult, error) {
	return s.st.result(ctx, in.ID, progress(ctx, req))
}

// prepare describes the workflow (building it when it is not fresh) and
// checks the input against its input schema, so that a run that could not
// start is never started; it returns the input and overrides as JSON.
func (s *Server) prepare(ctx context.Context, in RunInput) (input, overrides json.RawMessage, err error) {
	d, err := s.st.describe(ctx, in.Name)
	if err != nil {
		return nil, nil, err
	}
	if input, err = checkInput(d, in.Input, &s.val); err != nil {
		return nil, nil, err
	}
	if in.Overrides != nil {
		if overrides, err = json.Marshal(in.Overrides); err != nil {
			return nil, nil, errorf("encode the overrides: %v", err)
		}
	}
	return input, overrides, nil
}

// checkInput validates input against the workflow's input schema and
// returns it as JSON; the error names every failing field, as the
// runtime's input_validation does.
func checkInput(d Description, input map[string]any, val *validator) (json.RawMessage, error) {
	if input == nil {
		input = map[string]any{}
	}
	raw, err := json.Marshal(input)
	if err != nil {
		return nil, errorf("encode the input: %v", err)
	}
	schema, err := json.Marshal(d.Input)
	if err != nil {
		return nil, errorf("encode the input schema of %s: %v", d.Name, err)
	}
	issues, err := val.validate(schema, raw)
	var se *remote.SchemaError
	if errors.As(err, &se) {
		return nil, errorf("the input schema of %s does not compile: %v", d.Name, err)
	}
	if err != nil {
		return nil, err
	}
	if len(issues) > 0 {
		return nil, clierr.Usage(runapi.CodeInputValidation, "invalid input for workflow %q: %s", d.Name, verdict.Text(issues)).
			WithDetails(map[string]any{"workflow": d.Name, "issues": issues})
	}
	return raw, nil
}

// progress returns what turns the run's events into progress notifications
// of the call, when the client asked for them (a progress token).
func progress(ctx context.Context, req *mcp.CallToolRequest) func(eventapi.Event) {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return func(eventapi.Event) {}
	}
	var n float64
	return func(e eventapi.Event) {
		n++
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
			ProgressToken: token, Progress: n, Message: eventLine(e),
		})
	}
}

// eventLine is an event in a few words: its type, the agent's short ID and,
// for a log line, an MCP server's progress or a model retry, the message.
// Unknown event types keep just their type.
func eventLine(e eventapi.Event) string {
	parts := []string{e.Type}
	if e.AgentID != "" {
		parts = append(parts, e.AgentID[strings.LastIndex(e.AgentID, "/")+1:])
	}
	if m := message(e.Details); m != "" {
		parts = append(parts, m)
	}
	return strings.Join(parts, " ")
}

// message is what an event has to say, for the kinds that say something.
func message(d eventapi.Details) string {
	switch d := d.(type) {
	case *eventapi.WorkflowLog:
		return d.Message
	case *eventapi.MCPProgress:
		return d.Message
	case *eventapi.ModelRetry:
		return d.Message
	}
	return ""
}
