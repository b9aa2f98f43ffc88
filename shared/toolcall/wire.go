package toolcall

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"

	"github.com/stratoscli/stratos/shared/boundedread"
	"github.com/stratoscli/stratos/shared/wirelog"
)

// openWire opens the call's debug wire log when STRATOS_DEBUG_WIRE=1, named
// after the callee's process ("stratos-worktree[4242] acquire": calls of
// one tool may run at once) and written from its side, as the agent host's
// is: <- for what it read on stdin, -> for what it printed on stdout.
func (p *process) openWire(pid int) {
	w := p.c.WireLog
	if w == nil {
		w = os.Stderr
	}
	who := p.c.Tool
	if pid != 0 {
		who += "[" + strconv.Itoa(pid) + "]"
	}
	if cmd := p.name(); cmd != p.c.Tool {
		who += cmd[len(p.c.Tool):]
	}
	p.wire = wirelog.FromEnv(os.Getenv, w, who)
}

// logStart logs the callee's argv and its input. The environment is never
// shown: it holds the caller's credentials.
func (p *process) logStart(input []byte) {
	if p.wire == nil {
		return
	}
	caller, _ := self()
	p.wire.Note(fmt.Sprintf("argv %s (tool protocol %s, run by %s)", shownArgv(p.path, p.c.Args), Version, caller))
	if input != nil {
		p.wire.Message(wirelog.In, input)
	}
}

// shownArgv is argv as a JSON array, with every argument that is a JSON
// document (--overrides '{…}') redacted as wirelog redacts messages.
func shownArgv(path string, args []string) string {
	shown := make([]string, 0, 1+len(args))
	shown = append(shown, path)
	for _, a := range args {
		if t := bytes.TrimSpace([]byte(a)); len(t) > 0 && (t[0] == '{' || t[0] == '[') && json.Valid(t) {
			a = string(wirelog.Redact(t))
		}
		shown = append(shown, a)
	}
	b, _ := json.Marshal(shown)
	return string(b)
}

// logAnswer logs each JSON document of a callee's stdout on a line of its
// own (a tool printing JSON lines prints several); what does not decode is
// described, not shown.
func (p *process) logAnswer(stdout []byte) {
	if p.wire == nil {
		return
	}
	dec := json.NewDecoder(bytes.NewReader(stdout))
	for {
		start := dec.InputOffset()
		var doc json.RawMessage
		if err := dec.Decode(&doc); err != nil {
			if rest := bytes.TrimSpace(stdout[start:]); len(rest) > 0 {
				p.wire.Message(wirelog.Out, rest)
			}
			return
		}
		p.wire.Message(wirelog.Out, doc)
	}
}

// logEnd logs how the callee ended: its exit status, or the signal that
// ended it, and why it was stopped when it was.
func (p *process) logEnd(ctx context.Context, waitErr error, tooLarge *boundedread.TooLargeError) {
	if p.wire == nil {
		return
	}
	end := "exit 0"
	var exit *exec.ExitError
	switch {
	case errors.As(waitErr, &exit) && exit.Exited():
		end = fmt.Sprintf("exit %d", exit.ExitCode())
	case exit != nil:
		end = "ended by " + exit.ProcessState.String()
	case waitErr != nil:
		end = "ended: " + waitErr.Error()
	}
	switch {
	case tooLarge != nil:
		end += " (stopped: stdout " + tooLarge.Error() + ")"
	case waitErr != nil && ctx.Err() != nil:
		end += " (stopped: " + ctx.Err().Error() + ")"
	}
	p.wire.Note(end)
}
