package claudecode

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/hashicorp/go-hclog"

	kitproc "github.com/stratoscli/stratos/stratos-agent/adapter/process"
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

// process is one running CLI speaking the control protocol. The kit's
// process supervision owns its life (group, pipes, shutdown); this type
// adds the request/response bookkeeping of stream-json.
type process struct {
	*kitproc.Process
	log hclog.Logger

	mu      sync.Mutex
	pending map[string]chan *controlResponse
	seq     int
	exited  chan struct{} // closed once pending requests were released

	tools *toolSessions // the sessions of the shells it runs
}

// start spawns the CLI described by l and starts reading its output.
func start(l launch, h handlers, log hclog.Logger) (*process, error) {
	p := &process{log: log, pending: map[string]chan *controlResponse{}, exited: make(chan struct{})}
	kp, err := kitproc.Start(kitproc.Spec{Name: "claude", Path: l.bin, Args: l.argv(), Dir: l.dir, Env: l.env, Log: log,
		Stdout: func(line []byte) { p.dispatch(line, h) }})
	if err != nil {
		return nil, err
	}
	p.Process = kp
	p.tools = newToolSessions(kp.Pid(), kp.Exited(), log)
	go p.releaseOnExit()
	return p, nil
}

func (p *process) pid() int { return p.Pid() }

// releaseOnExit fails every pending request once the CLI is gone.
func (p *process) releaseOnExit() {
	<-p.Process.Exited()
	p.mu.Lock()
	for id, ch := range p.pending {
		close(ch)
		delete(p.pending, id)
	}
	p.mu.Unlock()
	close(p.exited)
}

func (p *process) exitError() error { return p.ExitError() }

func (p *process) dispatch(line []byte, h handlers) {
	if line[0] != '{' {
		p.log.Debug("claude stdout: ignoring a non-JSON line", "line", kitproc.Truncate(string(line), 200))
		return
	}
	f := &frame{}
	if err := json.Unmarshal(line, f); err != nil {
		p.log.Debug("claude stdout: undecodable frame", "error", err, "line", kitproc.Truncate(string(line), 200))
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
		p.tools.noteResults(f)
		h.frame(f)
	}
}

// send writes one JSON line to the CLI's stdin.
func (p *process) send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := p.WriteLine(b); err != nil {
		if errors.Is(err, kitproc.ErrStdinClosed) {
			return errExited
		}
		return err
	}
	return nil
}

// request sends a host → CLI control request and waits for its answer.
func (p *process) request(ctx context.Context, req hostRequest) (json.RawMessage, error) {
	id, ch := p.register()
	if err := p.send(controlRequestFrame{Type: "control_request", RequestID: id, Request: req}); err != nil {
		p.unregister(id)
		return nil, err
	}
	select {
	case r, ok := <-ch:
		if !ok {
			return nil, errExited
		}
		if r.Subtype == "error" {
			return nil, fmt.Errorf("claude refused %s: %s", req.subtype(), r.Error)
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
	return p.send(controlResponseFrame{Type: "control_response", Response: responseBody{Subtype: "success", RequestID: requestID, Response: payload}})
}

// respondError answers a CLI → host control request with an error.
func (p *process) respondError(requestID, msg string) error {
	return p.send(controlResponseFrame{Type: "control_response", Response: responseBody{Subtype: "error", RequestID: requestID, Error: msg}})
}

// shutdown stops the CLI (the kit's bounded steps: closing stdin lets it
// end its turn and stop its background tasks; SIGTERM, then SIGKILL, to
// its process group).
func (p *process) shutdown(ctx context.Context) error { return p.Shutdown(ctx) }
