package testscripts

import (
	"context"
	"encoding/base64"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"google.golang.org/protobuf/encoding/protojson"
)

// TestTemporal runs testdata/temporal: runs on the Temporal engine (stratos
// run --engine temporal, stratos worker) against a real Temporal server,
// the dev server of the Temporal CLI that scripts/prepare-test-cache builds
// from its Go module ($STRATOS_TEST_TEMPORAL). Workers are background
// `stratos worker` processes, each with a HOME of its own, standing in for
// machines.
//
// Script commands:
//
//	temporal-dev start
//	                start a dev server on free loopback ports with its
//	                database in $WORK/temporal.db, set TEMPORAL_ADDRESS, and
//	                wait until it answers; it is stopped when the script ends
//	temporal-dev restart
//	                stop the server (SIGKILL) and start it again on the same
//	                port and database
//	temporal-dev stop
//	                stop the server (SIGKILL), leaving it stopped
//	temporal-dev wait-run
//	                wait until the server holds a workflow (a background
//	                stratos run has submitted its run)
//	temporal-history
//	                print the history of every workflow on the server, one
//	                event per line as JSON with payloads decoded, for
//	                stdout/! stdout checks (what a run puts in Temporal)
//	waitfile <path> wait until the file exists (TestRun's)
//	waitgrep <path> <regexp>
//	                wait until the file matches (TestFaults'): a worker's
//	                log written to a file
//	jsonget KEY VAR set $VAR to the field at KEY of the JSON on the last
//	                command's stdout (TestWorktree's)
//	temporal-activity pause|unpause <activity-type>
//	                pause or unpause, as an operator would, the one pending
//	                activity of that type on the server (pause waits until
//	                its running attempt ended)
//	fakemodel, httpget, httppost
//	                a fake model server (withFakeModel's): an Ollama for
//	                workers whose agents are on provider ollama
func TestTemporal(t *testing.T) {
	bin := os.Getenv("STRATOS_TEST_TEMPORAL")
	if bin == "" {
		t.Fatal("STRATOS_TEST_TEMPORAL is not set: run `eval \"$(scripts/prepare-test-cache)\"`, which builds the Temporal CLI (its dev server) and sets it")
	}
	p := withFakeModel(params(t, "temporal"))
	servers := &devServers{bin: bin, byWork: map[string]*devServer{}, handed: map[int]bool{}}
	p.Cmds["temporal-dev"] = servers.cmd
	p.Cmds["temporal-history"] = cmdTemporalHistory
	p.Cmds["waitfile"] = cmdRunWaitFile
	p.Cmds["waitgrep"] = cmdFaultWaitGrep
	p.Cmds["jsonget"] = cmdJSONGet
	p.Cmds["temporal-activity"] = cmdTemporalActivity
	testscript.Run(t, p)
}

// devServers are the scripts' dev servers, by work directory.
type devServers struct {
	bin    string
	mu     sync.Mutex
	byWork map[string]*devServer
	// handed are the ports given to any script's server. Two scripts
	// starting at once were once handed the same free port: one server
	// bound it, the other exited, and both scripts dialed the first, so
	// each one's workers took the other's runs.
	handed map[int]bool
}

// port is a free loopback port no script's server was given before.
func (s *devServers) port(ts *testscript.TestScript) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		if p := freePort(ts); !s.handed[p] {
			s.handed[p] = true
			return p
		}
	}
}

type devServer struct {
	cmd  *exec.Cmd
	port int
	db   string
}

func (s *devServers) cmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: temporal-dev start|restart|stop|wait-run")
	}
	if args[0] == "wait-run" {
		waitRun(ts)
		return
	}
	work := ts.Getenv("WORK")
	s.mu.Lock()
	srv := s.byWork[work]
	s.mu.Unlock()
	switch args[0] {
	case "start":
		if srv != nil {
			ts.Fatalf("temporal-dev: already started")
		}
		srv = &devServer{port: s.port(ts), db: filepath.Join(work, "temporal.db")}
		s.mu.Lock()
		s.byWork[work] = srv
		s.mu.Unlock()
		ts.Defer(srv.stop)
	case "restart", "stop":
		if srv == nil {
			ts.Fatalf("temporal-dev: not started")
		}
		srv.stop()
		if args[0] == "stop" {
			return
		}
	default:
		ts.Fatalf("usage: temporal-dev start|restart|stop|wait-run")
	}
	srv.start(ts, s, args[0] == "start")
	ts.Setenv("TEMPORAL_ADDRESS", "127.0.0.1:"+strconv.Itoa(srv.port))
}

// waitRun waits until the server holds a workflow: a run has been
// submitted (a script's background `stratos run` may take seconds to get
// there on a loaded machine).
func waitRun(ts *testscript.TestScript) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	c, err := client.DialContext(ctx, client.Options{HostPort: ts.Getenv("TEMPORAL_ADDRESS"), Logger: quietLogger{}})
	if err != nil {
		ts.Fatalf("temporal-dev wait-run: %v", err)
	}
	defer c.Close()
	for {
		list, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{})
		if err == nil && len(list.Executions) > 0 {
			return
		}
		select {
		case <-ctx.Done():
			ts.Fatalf("temporal-dev wait-run: no workflow on the server within 90s (last error: %v)", err)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func (d *devServer) start(ts *testscript.TestScript, s *devServers, fresh bool) {
	// Ports are picked free and released before the server binds them, so
	// a script running beside this one may take one first: the server
	// then exits at once, and starts again on other ports (keeping its
	// main port on a restart, which clients must find again).
	for attempt := 1; ; attempt++ {
		exited, err := d.launch(ts, s)
		if err == nil {
			err = d.await(exited)
		}
		if err == nil {
			return
		}
		if attempt == 3 {
			ts.Fatalf("temporal-dev: %v (see $WORK/temporal-dev.log)", err)
		}
		if fresh {
			d.port = s.port(ts)
		}
	}
}

// launch starts the server and returns a channel closed when it exits.
func (d *devServer) launch(ts *testscript.TestScript, s *devServers) (<-chan struct{}, error) {
	log, err := os.OpenFile(filepath.Join(ts.Getenv("WORK"), "temporal-dev.log"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	defer log.Close()
	d.cmd = exec.Command(s.bin, "server", "start-dev", "--headless", "--ip", "127.0.0.1",
		"--port", strconv.Itoa(d.port), "--http-port", strconv.Itoa(s.port(ts)), "--metrics-port", strconv.Itoa(s.port(ts)),
		"--db-filename", d.db, "--log-level", "error")
	d.cmd.Stdout, d.cmd.Stderr = log, log
	if err := d.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", s.bin, err)
	}
	exited := make(chan struct{})
	go func() { _ = d.cmd.Wait(); close(exited) }()
	return exited, nil
}

// await waits until the server answers, or exits, or 90 seconds pass.
func (d *devServer) await(exited <-chan struct{}) error {
	deadline := time.Now().Add(90 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		c, err := client.DialContext(ctx, client.Options{HostPort: "127.0.0.1:" + strconv.Itoa(d.port), Logger: quietLogger{}})
		cancel()
		if err == nil {
			c.Close()
			return nil
		}
		select {
		case <-exited:
			return fmt.Errorf("the dev server exited while starting")
		default:
		}
		if time.Now().After(deadline) {
			d.stop()
			return fmt.Errorf("no answer on port %d within 90s: %v", d.port, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func (d *devServer) stop() {
	if d.cmd != nil && d.cmd.Process != nil {
		_ = d.cmd.Process.Kill()
		_, _ = d.cmd.Process.Wait()
	}
}

func freePort(ts *testscript.TestScript) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		ts.Fatalf("free port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// listWorkflows dials the script's dev server and lists every workflow on
// it; cmd names the script command in a failure. The caller closes the
// client.
func listWorkflows(ctx context.Context, ts *testscript.TestScript, cmd string) (client.Client, []*workflowpb.WorkflowExecutionInfo) {
	c, err := client.DialContext(ctx, client.Options{HostPort: ts.Getenv("TEMPORAL_ADDRESS"), Logger: quietLogger{}})
	if err != nil {
		ts.Fatalf("%s: %v", cmd, err)
	}
	list, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{})
	if err != nil {
		c.Close()
		ts.Fatalf("%s: list: %v", cmd, err)
	}
	return c, list.Executions
}

func cmdTemporalHistory(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: temporal-history")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, workflows := listWorkflows(ctx, ts, "temporal-history")
	defer c.Close()
	out := ts.Stdout()
	for _, ex := range workflows {
		it := c.GetWorkflowHistory(ctx, ex.Execution.WorkflowId, ex.Execution.RunId, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for it.HasNext() {
			e, err := it.Next()
			if err != nil {
				ts.Fatalf("temporal-history: %s: %v", ex.Execution.WorkflowId, err)
			}
			b, err := protojson.Marshal(e)
			if err != nil {
				ts.Fatalf("temporal-history: %v", err)
			}
			// Payloads are base64 in the JSON: decode each one so that
			// a check sees what they hold.
			fmt.Fprintf(out, "%s %s\n", b, decodedPayloads(b))
		}
	}
}

// decodedPayloads is every "data" field of a history event's JSON, base64
// decoded, joined by spaces.
func decodedPayloads(event []byte) string {
	var parts []string
	for _, m := range payloadData.FindAllSubmatch(event, -1) {
		if d, err := base64.StdEncoding.DecodeString(string(m[1])); err == nil {
			parts = append(parts, string(d))
		}
	}
	return strings.Join(parts, " ")
}

var payloadData = regexp.MustCompile(`"data":"([A-Za-z0-9+/=]*)"`)

// quietLogger drops the Temporal SDK's log while the server starts.
type quietLogger struct{}

func (quietLogger) Debug(string, ...any) {}
func (quietLogger) Info(string, ...any)  {}
func (quietLogger) Warn(string, ...any)  {}
func (quietLogger) Error(string, ...any) {}

// cmdTemporalActivity pauses or unpauses, as an operator does with
// `temporal activity pause|unpause`, the one pending activity of type typ
// among the workflows on the script's server. A pause waits until the
// activity's running attempt has ended.
func cmdTemporalActivity(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 || (args[0] != "pause" && args[0] != "unpause") {
		ts.Fatalf("usage: temporal-activity pause|unpause <activity-type>")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, workflows := listWorkflows(ctx, ts, "temporal-activity")
	defer c.Close()
	var found []*commonpb.WorkflowExecution
	var id string
	for _, ex := range workflows {
		desc, err := c.DescribeWorkflow(ctx, ex.Execution.WorkflowId, ex.Execution.RunId)
		if err != nil {
			continue // closed meanwhile
		}
		for _, a := range desc.RawResponse.GetPendingActivities() {
			if a.GetActivityType().GetName() == args[1] {
				found, id = append(found, ex.Execution), a.GetActivityId()
			}
		}
	}
	if len(found) != 1 {
		ts.Fatalf("temporal-activity: %d pending activities of type %s; want 1", len(found), args[1])
	}
	var err error
	if args[0] == "pause" {
		_, err = c.WorkflowService().PauseActivity(ctx, &workflowservice.PauseActivityRequest{Namespace: "default", Execution: found[0],
			Activity: &workflowservice.PauseActivityRequest_Id{Id: id}, Identity: "testscript", Reason: "a testscript pauses it"})
	} else {
		_, err = c.WorkflowService().UnpauseActivity(ctx, &workflowservice.UnpauseActivityRequest{Namespace: "default", Execution: found[0],
			Activity: &workflowservice.UnpauseActivityRequest_Id{Id: id}, Identity: "testscript"})
	}
	if err != nil {
		ts.Fatalf("temporal-activity %s: %v", args[0], err)
	}
	if args[0] == "pause" {
		awaitPaused(ctx, ts, c, found[0], id)
	}
}

// awaitPaused waits until the paused activity's running attempt has ended
// (its worker learns of the pause at its next heartbeat, and fails it):
// state PAUSED, not PAUSE_REQUESTED.
func awaitPaused(ctx context.Context, ts *testscript.TestScript, c client.Client, ex *commonpb.WorkflowExecution, id string) {
	for {
		desc, err := c.DescribeWorkflow(ctx, ex.WorkflowId, ex.RunId)
		if err != nil {
			ts.Fatalf("temporal-activity pause: %v", err)
		}
		pending := desc.RawResponse.GetPendingActivities()
		i := slices.IndexFunc(pending, func(a *workflowpb.PendingActivityInfo) bool { return a.GetActivityId() == id })
		if i < 0 {
			ts.Fatalf("temporal-activity pause: activity %s of %s ended instead of pausing", id, ex.WorkflowId)
		}
		if pending[i].GetState() == enumspb.PENDING_ACTIVITY_STATE_PAUSED {
			return
		}
		select {
		case <-ctx.Done():
			ts.Fatalf("temporal-activity pause: activity %s of %s still not paused (state %v)", id, ex.WorkflowId, pending[i].GetState())
		case <-time.After(200 * time.Millisecond):
		}
	}
}
