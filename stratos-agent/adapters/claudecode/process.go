package claudecode

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"
)

// Shutdown steps (docs/design/claude-code-cli.md): closing stdin lets the CLI end
// its turn, stop its background tasks and exit; SIGTERM does the same at
// once; SIGKILL is the last resort because it orphans background shells.
const (
	stdinCloseWait = 5 * time.Second
	sigtermWait    = 3 * time.Second
	sigkillWait    = 2 * time.Second
	// pipeDrainWait bounds reading stdout/stderr after the CLI exited: a
	// descendant that inherited the pipes must not keep the reader alive.
	pipeDrainWait = 2 * time.Second
)

// errExited is returned for requests the CLI can no longer answer.
var errExited = errors.New("the claude process has exited")

// handlers receive what the reader goroutine decodes, in stdout order.
type handlers struct {
	// frame gets every frame that is not a control message.
	frame func(*frame)
	// control gets CLI → host control requests; it must not block (it
	// answers from a goroutine of its own).
	control func(*process, *frame)
	// cancel gets control_cancel_request ids.
	cancel func(requestID string)
}

// process is one running CLI with its pipes.
type process struct {
	cmd   *exec.Cmd
	log   hclog.Logger
	stdin io.WriteCloser

	wmu         sync.Mutex // one writer: a malformed or interleaved line kills the CLI
	stdinClosed bool

	mu      sync.Mutex
	pending map[string]chan *controlResponse
	seq     int

	stderr  *tail
	exited  chan struct{} // closed when the process was reaped and stdout drained
	exitErr error
}

// start spawns the CLI described by l and starts reading its output.
func start(l launch, h handlers, log hclog.Logger) (*process, error) {
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, err
	}
	cmd := exec.Command(l.bin, l.argv()...)
	cmd.Dir, cmd.Env, cmd.SysProcAttr = l.dir, l.env, procAttr()
	cmd.Stdout, cmd.Stderr = outW, errW
	stdin, err := cmd.StdinPipe()
	if err == nil {
		err = cmd.Start()
	}
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return nil, fmt.Errorf("start %s: %w", l.bin, err)
	}
	p := &process{cmd: cmd, log: log, stdin: stdin, pending: map[string]chan *controlResponse{},
		stderr: &tail{max: 8 << 10}, exited: make(chan struct{})}
	stdoutDone := make(chan struct{})
	go p.readStdout(outR, h, stdoutDone)
	go p.drainStderr(errR)
	go p.wait(outR, errR, stdoutDone)
	return p, nil
}

func (p *process) pid() int { return p.cmd.Process.Pid }

// readStdout decodes one frame per line. Lines can be far longer than 64
// KiB, so it reads with ReadBytes rather than a Scanner.
func (p *process) readStdout(r *os.File, h handlers, done chan<- struct{}) {
	defer close(done)
	br := bufio.NewReaderSize(r, 256<<10)
	for {
		line, err := br.ReadBytes('\n')
		if t := bytes.TrimSpace(line); len(t) > 0 {
			p.dispatch(t, h)
		}
		if err != nil {
			return
		}
	}
}

func (p *process) dispatch(line []byte, h handlers) {
	if line[0] != '{' {
		p.log.Debug("claude stdout: ignoring a non-JSON line", "line", truncate(string(line), 200))
		return
	}
	f := &frame{}
	if err := json.Unmarshal(line, f); err != nil {
		p.log.Debug("claude stdout: undecodable frame", "error", err, "line", truncate(string(line), 200))
		return
	}
	f.raw = line
	switch f.Type {
	case "control_response":
		if f.Response != nil {
			p.resolve(f.Response)
		}
	case "control_request":
		h.control(p, f)
	case "control_cancel_request":
		h.cancel(f.RequestID)
	case "keep_alive":
	default:
		h.frame(f)
	}
}

func (p *process) drainStderr(r *os.File) {
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadString('\n')
		if line != "" {
			p.stderr.Write([]byte(line))
			p.log.Debug("claude stderr", "line", truncate(line, 500))
		}
		if err != nil {
			return
		}
	}
}

// wait reaps the process, then gives the readers a bounded time to drain.
func (p *process) wait(outR, errR *os.File, stdoutDone <-chan struct{}) {
	err := p.cmd.Wait()
	deadline := time.Now().Add(pipeDrainWait)
	_ = outR.SetReadDeadline(deadline)
	_ = errR.SetReadDeadline(deadline)
	<-stdoutDone
	outR.Close()
	errR.Close()
	p.mu.Lock()
	p.exitErr = err
	for id, ch := range p.pending {
		close(ch)
		delete(p.pending, id)
	}
	p.mu.Unlock()
	close(p.exited)
}

// exitError describes how the process ended, with the end of its stderr.
func (p *process) exitError() error {
	p.mu.Lock()
	err := p.exitErr
	p.mu.Unlock()
	msg := "claude exited"
	if err != nil {
		msg = fmt.Sprintf("claude exited: %v", err)
	}
	if s := p.stderr.String(); s != "" {
		msg += "; stderr: " + s
	}
	return errors.New(msg)
}

// send writes one JSON line to the CLI's stdin.
func (p *process) send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	p.wmu.Lock()
	defer p.wmu.Unlock()
	if p.stdinClosed {
		return errExited
	}
	if _, err := p.stdin.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("write to claude: %w", err)
	}
	return nil
}

// request sends a host → CLI control request and waits for its answer.
func (p *process) request(ctx context.Context, req map[string]any) (json.RawMessage, error) {
	id, ch := p.register()
	if err := p.send(map[string]any{"type": "control_request", "request_id": id, "request": req}); err != nil {
		p.unregister(id)
		return nil, err
	}
	select {
	case r, ok := <-ch:
		if !ok {
			return nil, errExited
		}
		if r.Subtype == "error" {
			return nil, fmt.Errorf("claude refused %v: %s", req["subtype"], r.Error)
		}
		return r.Response, nil
	case <-ctx.Done():
		p.unregister(id)
		return nil, ctx.Err()
	}
}

func (p *process) register() (string, chan *controlResponse) {
	var rnd [4]byte
	_, _ = rand.Read(rnd[:])
	ch := make(chan *controlResponse, 1)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seq++
	id := fmt.Sprintf("req_%d_%s", p.seq, hex.EncodeToString(rnd[:]))
	select {
	case <-p.exited:
		close(ch)
	default:
		p.pending[id] = ch
	}
	return id, ch
}

func (p *process) unregister(id string) {
	p.mu.Lock()
	delete(p.pending, id)
	p.mu.Unlock()
}

func (p *process) resolve(r *controlResponse) {
	p.mu.Lock()
	ch := p.pending[r.RequestID]
	delete(p.pending, r.RequestID)
	p.mu.Unlock()
	if ch != nil {
		ch <- r
	}
}

// respond answers a CLI → host control request.
func (p *process) respond(requestID string, payload any) error {
	if payload == nil {
		payload = struct{}{}
	}
	return p.send(map[string]any{"type": "control_response", "response": map[string]any{
		"subtype": "success", "request_id": requestID, "response": payload}})
}

// respondError answers a CLI → host control request with an error.
func (p *process) respondError(requestID, msg string) error {
	return p.send(map[string]any{"type": "control_response", "response": map[string]any{
		"subtype": "error", "request_id": requestID, "error": msg}})
}

func (p *process) closeStdin() {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	if !p.stdinClosed {
		p.stdinClosed = true
		_ = p.stdin.Close()
	}
}

// shutdown stops the CLI: stdin closed, a bounded wait, then SIGTERM and
// finally SIGKILL to its process group. It returns an error only when the
// process could not be reaped. The steps are bounded by their own waits,
// not by ctx: a caller whose context already ended (a host shutting down)
// must still get the graceful steps, because SIGKILL orphans background
// shells.
func (p *process) shutdown(ctx context.Context) error {
	ctx = context.WithoutCancel(ctx)
	p.closeStdin()
	if p.waitExit(ctx, stdinCloseWait) {
		p.signalLeftovers()
		return nil
	}
	p.log.Debug("claude did not exit after stdin closed; sending SIGTERM", "pid", p.pid())
	_ = signalGroup(p.pid(), syscall.SIGTERM)
	if p.waitExit(ctx, sigtermWait) {
		p.signalLeftovers()
		return nil
	}
	p.log.Warn("claude did not exit after SIGTERM; killing its process group", "pid", p.pid())
	_ = signalGroup(p.pid(), syscall.SIGKILL)
	if p.waitExit(ctx, sigkillWait) {
		return nil
	}
	return fmt.Errorf("claude (pid %d) did not exit after SIGKILL", p.pid())
}

// signalLeftovers terminates whatever is still in the CLI's process group
// after the CLI itself exited (an MCP server or helper that ignored stdin
// closing). ESRCH (nobody left) is the normal case.
func (p *process) signalLeftovers() {
	_ = signalGroup(p.pid(), syscall.SIGTERM)
}

func (p *process) waitExit(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// tail keeps the last max bytes written (the end of the CLI's stderr, for
// error messages).
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	return len(b), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.TrimSpace(t.buf))
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
