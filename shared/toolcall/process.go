package toolcall

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"syscall"

	"github.com/stratoscli/stratos/shared/boundedread"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
	"github.com/stratoscli/stratos/shared/procgroup"
	"github.com/stratoscli/stratos/shared/sibling"
	"github.com/stratoscli/stratos/shared/wirelog"
)

// process is a call whose callee runs.
type process struct {
	c      Call
	path   string // the callee's binary
	proc   *procgroup.Process
	stderr tail
	wire   *wirelog.Log // nil: no debug wire log
}

// start finds the callee, starts it with its input on stdin and its stdout
// going to stdout, under ctx, and logs the call's start on the wire log.
func (c Call) start(ctx context.Context, stdout io.Writer) (*process, error) {
	path, err := sibling.Find(c.Tool)
	if err != nil {
		return nil, err
	}
	p := &process{c: c, path: path}
	input, err := encode(c.Input)
	if err != nil {
		return nil, clierr.New(errcode.CodeInternal, "encode the input of %s: %v", p.name(), err).Wrap(err)
	}
	cmd, opts := p.command(ctx, input, stdout)
	if p.proc, err = procgroup.Start(cmd, opts); err != nil {
		p.openWire(0)
		p.logStart(input)
		p.wire.Note("not started: " + err.Error())
		return nil, p.failed(err, "start %s (%s): %v", c.Tool, path, err)
	}
	p.openWire(p.proc.Pid())
	p.logStart(input)
	if c.Started != nil {
		c.Started(p.proc.Pid())
	}
	return p, nil
}

// encode is the JSON of a call's input, nil without one: as written, HTML
// characters in prompts and all.
func encode(input any) ([]byte, error) {
	if input == nil {
		return nil, nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(input); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// command is the callee's command with the version statement in its
// environment, and how its process group ends.
func (p *process) command(ctx context.Context, input []byte, stdout io.Writer) (*exec.Cmd, procgroup.Options) {
	cmd := exec.CommandContext(ctx, p.path, p.c.Args...)
	// Appended last, the statement wins over one this process inherited.
	cmd.Env = append(os.Environ(), EnvVersion+"="+Version)
	if input != nil {
		cmd.Stdin = bytes.NewReader(input)
	}
	cmd.Stdout = stdout
	cmd.Stderr = &p.stderr
	if p.c.Stderr != nil {
		cmd.Stderr = io.MultiWriter(&p.stderr, p.c.Stderr)
	}
	var opts procgroup.Options
	if p.c.StopGrace > 0 {
		opts.DeathSignal, opts.CancelSignal = syscall.SIGTERM, syscall.SIGTERM
		cmd.WaitDelay = p.c.StopGrace
	}
	return cmd, opts
}

// wait waits for the callee to exit; nothing of its process group is left.
func (p *process) wait() error { return p.proc.Wait() }

// readLines hands each line of r to each (and to the wire log) until r
// ends or a line is longer than the limit, which stops the callee. It
// returns the last line, where a failed callee's error envelope is.
func (p *process) readLines(r io.Reader, stop func(), each func([]byte)) (last []byte, tooLarge *boundedread.TooLargeError) {
	limit := p.c.maxOutput()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, min(limit+1, 64<<10)), int(limit+1))
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) > int(limit) {
			tooLarge = &boundedread.TooLargeError{Limit: limit}
			break
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		p.wire.Message(wirelog.Out, line)
		each(line)
		last = append(last[:0], line...)
	}
	if sc.Err() == bufio.ErrTooLong {
		tooLarge = &boundedread.TooLargeError{Limit: limit}
	}
	if tooLarge != nil {
		stop()
	}
	return last, tooLarge
}

// name is the callee's tool and subcommand ("stratos-worktree acquire"),
// as errors name it.
func (p *process) name() string {
	if len(p.c.Args) > 0 && p.c.Args[0] != "" && p.c.Args[0][0] != '-' {
		return p.c.Tool + " " + p.c.Args[0]
	}
	return p.c.Tool
}

// capped keeps the first limit bytes written to it; on the first byte
// more it stops the callee and discards the rest without failing the
// writer, so that the callee is ended by the stop, not by a broken pipe.
type capped struct {
	limit int64
	stop  func()
	buf   bytes.Buffer
	over  bool
}

func (w *capped) Write(b []byte) (int, error) {
	if w.over {
		return len(b), nil
	}
	if room := w.limit - int64(w.buf.Len()); int64(len(b)) > room {
		w.buf.Write(b[:room]) // for the wire log
		w.over = true
		w.stop()
		return len(b), nil
	}
	return w.buf.Write(b)
}

// Bytes is what was kept; read it only after the callee was waited for.
func (w *capped) Bytes() []byte { return w.buf.Bytes() }

func (w *capped) tooLarge() *boundedread.TooLargeError {
	if !w.over {
		return nil
	}
	return &boundedread.TooLargeError{Limit: w.limit}
}

// maxStderrKept bounds the end of the callee's stderr that the error of a
// failure without an error envelope quotes: its last words say why.
const maxStderrKept = 4 << 10

// tail keeps the last maxStderrKept bytes written to it.
type tail struct {
	buf []byte
	cut bool // bytes before buf were dropped
}

func (t *tail) Write(b []byte) (int, error) {
	t.buf = append(t.buf, b...)
	if len(t.buf) > 2*maxStderrKept { // copy only now and then
		t.buf = append(t.buf[:0:0], t.buf[len(t.buf)-maxStderrKept:]...)
		t.cut = true
	}
	return len(b), nil
}

// String is the kept end, trimmed; read it only after the callee was
// waited for.
func (t *tail) String() string {
	b := t.buf
	cut := t.cut
	if len(b) > maxStderrKept {
		b, cut = b[len(b)-maxStderrKept:], true
	}
	s := string(bytes.TrimSpace(b))
	if cut && s != "" {
		s = "…" + s
	}
	return s
}
