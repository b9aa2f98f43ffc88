package opencode

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"regexp"
	"strconv"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/stratoscli/stratos/stratos-agent/adapter/process"
)

// readyTimeout bounds the server's start: 3–6 s measured from spawn to the
// listening line on a loaded 2-core machine.
const readyTimeout = 90 * time.Second

// serverGrace: `opencode serve` ignores stdin and has no graceful
// shutdown of its own (it dies at SIGTERM at once), so closing stdin is
// not waited for; SIGTERM to the group also ends its MCP servers.
var serverGrace = process.Grace{StdinClose: time.Millisecond, Terminate: 5 * time.Second, Kill: 2 * time.Second}

// listening is the stdout line that says the server accepts requests (and
// on which port). Requests sent before it may hang forever.
var listening = regexp.MustCompile(`opencode server listening on (http://127\.0\.0\.1:(\d+))`)

// server is one running `opencode serve`.
type server struct {
	p        *process.Process
	url      string
	password string
}

// startTries bounds the starts of `opencode serve` that lost their port.
const startTries = 3

// portTaken is what `opencode serve` says on stderr, and nothing more
// ("Unexpected error ... ServeError", exit status 1), when its port is
// taken: the free port freePort found was taken by another process before
// the server bound it.
var portTaken = regexp.MustCompile(`\bServeError\b`)

// startServer starts `opencode serve` on a free loopback port in dir and
// waits for its listening line. A server that lost its port to another
// process is started again on another.
func startServer(ctx context.Context, bin, dir string, env []string, password string, log hclog.Logger) (*server, error) {
	for try := 1; ; try++ {
		s, err := startServerOnce(ctx, bin, dir, env, password, log)
		var lost *portLostError
		if !errors.As(err, &lost) || try == startTries {
			return s, err
		}
		log.Debug("opencode serve lost its port; starting it on another", "port", lost.port, "try", try)
	}
}

// portLostError is a server that exited before listening because its port
// was taken.
type portLostError struct {
	port int
	err  error
}

func (e *portLostError) Error() string { return e.err.Error() }
func (e *portLostError) Unwrap() error { return e.err }

func startServerOnce(ctx context.Context, bin, dir string, env []string, password string, log hclog.Logger) (*server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	ready := make(chan string, 1)
	var once sync.Once
	p, err := process.Start(process.Spec{Name: "opencode", Path: bin, Dir: dir, Env: env, Log: log, Grace: serverGrace,
		Args: []string{"serve", "--hostname", "127.0.0.1", "--port", strconv.Itoa(port)},
		Stdout: func(line []byte) {
			if m := listening.FindSubmatch(line); m != nil {
				once.Do(func() { ready <- string(m[1]) })
			}
		}})
	if err != nil {
		return nil, err
	}
	t := time.NewTimer(readyTimeout)
	defer t.Stop()
	select {
	case u := <-ready:
		return &server{p: p, url: u, password: password}, nil
	case <-p.Exited():
		err := fmt.Errorf("opencode serve exited before listening: %w", p.ExitError())
		if portTaken.MatchString(p.StderrTail()) {
			return nil, &portLostError{port: port, err: err}
		}
		return nil, err
	case <-t.C:
		err = fmt.Errorf("opencode serve did not report listening within %s (stderr: %s)", readyTimeout, process.Truncate(p.StderrTail(), 500))
	case <-ctx.Done():
		err = ctx.Err()
	}
	_ = p.Shutdown(context.Background())
	return nil, err
}

// freePort is a loopback port nobody listens on now. (`--port 0` would try
// 4096 first, so sessions would race for it.)
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free loopback port: %w", err)
	}
	defer ln.Close()
	addr, ok := ln.Addr().(*net.TCPAddr)
	if !ok {
		return 0, errors.New("find a free loopback port: not a TCP address")
	}
	return addr.Port, nil
}

// randomSecret is 32 random bytes in hex.
func randomSecret() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}
