package testscripts

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"go.temporal.io/sdk/client"
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
//	waitfile <path> wait until the file exists (TestRun's)
func TestTemporal(t *testing.T) {
	bin := os.Getenv("STRATOS_TEST_TEMPORAL")
	if bin == "" {
		t.Fatal("STRATOS_TEST_TEMPORAL is not set: run `eval \"$(scripts/prepare-test-cache)\"`, which builds the Temporal CLI (its dev server) and sets it")
	}
	p := params(t, "temporal")
	servers := &devServers{bin: bin, byWork: map[string]*devServer{}}
	p.Cmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"temporal-dev": servers.cmd,
		"waitfile":     cmdRunWaitFile,
	}
	testscript.Run(t, p)
}

// devServers are the scripts' dev servers, by work directory.
type devServers struct {
	bin    string
	mu     sync.Mutex
	byWork map[string]*devServer
}

type devServer struct {
	cmd  *exec.Cmd
	port int
	db   string
}

func (s *devServers) cmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: temporal-dev start|restart")
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
		srv = &devServer{port: freePort(ts), db: filepath.Join(work, "temporal.db")}
		s.mu.Lock()
		s.byWork[work] = srv
		s.mu.Unlock()
		ts.Defer(srv.stop)
	case "restart":
		if srv == nil {
			ts.Fatalf("temporal-dev: not started")
		}
		srv.stop()
	default:
		ts.Fatalf("usage: temporal-dev start|restart")
	}
	srv.start(ts, s.bin)
	ts.Setenv("TEMPORAL_ADDRESS", "127.0.0.1:"+strconv.Itoa(srv.port))
}

func (d *devServer) start(ts *testscript.TestScript, bin string) {
	log, err := os.OpenFile(filepath.Join(ts.Getenv("WORK"), "temporal-dev.log"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		ts.Fatalf("temporal-dev: %v", err)
	}
	defer log.Close()
	d.cmd = exec.Command(bin, "server", "start-dev", "--headless", "--ip", "127.0.0.1",
		"--port", strconv.Itoa(d.port), "--http-port", strconv.Itoa(freePort(ts)), "--metrics-port", strconv.Itoa(freePort(ts)),
		"--db-filename", d.db, "--log-level", "error")
	d.cmd.Stdout, d.cmd.Stderr = log, log
	if err := d.cmd.Start(); err != nil {
		ts.Fatalf("temporal-dev: start %s: %v", bin, err)
	}
	exited := make(chan struct{})
	go func() { _ = d.cmd.Wait(); close(exited) }()
	deadline := time.Now().Add(90 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		c, err := client.DialContext(ctx, client.Options{HostPort: "127.0.0.1:" + strconv.Itoa(d.port), Logger: quietLogger{}})
		cancel()
		if err == nil {
			c.Close()
			return
		}
		select {
		case <-exited:
			ts.Fatalf("temporal-dev: the dev server exited (see $WORK/temporal-dev.log)")
		default:
		}
		if time.Now().After(deadline) {
			ts.Fatalf("temporal-dev: no answer on port %d within 90s: %v", d.port, err)
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

// quietLogger drops the Temporal SDK's log while the server starts.
type quietLogger struct{}

func (quietLogger) Debug(string, ...any) {}
func (quietLogger) Info(string, ...any)  {}
func (quietLogger) Warn(string, ...any)  {}
func (quietLogger) Error(string, ...any) {}
