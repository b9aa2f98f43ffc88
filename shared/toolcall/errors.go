package toolcall

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"

	"github.com/stratoscli/stratos/shared/boundedread"
	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/contract/errcode"
)

// outcome is the call's result once the callee has exited: answer is what
// it printed (all of stdout, or its last line), decode decodes it for the
// caller (nil: nothing to decode).
func (p *process) outcome(ctx context.Context, waitErr error, tooLarge *boundedread.TooLargeError, answer []byte, decode func() error) error {
	if tooLarge != nil {
		return p.failed(tooLarge, "%s printed %s on stdout; it was stopped", p.name(), tooLarge.Error()).
			WithDetails(map[string]any{"tool": p.c.Tool, "path": p.path, "limit": tooLarge.Limit})
	}
	if waitErr != nil && ctx.Err() != nil {
		return p.stopped(ctx)
	}
	if waitErr != nil {
		var exit *exec.ExitError
		if !errors.As(waitErr, &exit) {
			return p.failed(waitErr, "%s (%s): %v", p.name(), p.path, waitErr)
		}
		if err := p.envelope(answer, exit.ExitCode()); err != nil {
			return err
		}
		if !p.c.AnswersOnFailure || exit.ExitCode() != clierr.ExitFailed {
			return p.exited(exit)
		}
	}
	if decode == nil {
		return nil
	}
	if err := decode(); err != nil {
		return p.failed(err, "%s (%s) gave an answer that does not decode: %v", p.name(), p.path, err)
	}
	return nil
}

// envelope is the callee's error envelope, when answer is one, as the
// caller's error: the callee's code, message and details as they are, so
// that callers react to the same constants the callee returns.
func (p *process) envelope(answer []byte, status int) error {
	var env clierr.Envelope
	if json.Unmarshal(answer, &env) != nil || env.Error.Code == "" {
		return nil
	}
	if env.Error.Code == errcode.CodeToolProtocolMismatch {
		var d struct {
			Error struct {
				Details MismatchDetails `json:"details"`
			} `json:"error"`
		}
		_ = json.Unmarshal(answer, &d)
		return p.mismatch(d.Error.Details.Protocol)
	}
	return &clierr.Error{Code: env.Error.Code, Message: env.Error.Message, Details: env.Error.Details, Exit: status}
}

// exited is a callee that failed without an error envelope (a crash, a
// panic, a tool that does not know the command): its exit status and the
// end of its stderr.
func (p *process) exited(exit *exec.ExitError) *clierr.Error {
	how := fmt.Sprintf("exited with status %d", exit.ExitCode())
	if !exit.Exited() {
		how = "ended by " + exit.ProcessState.String()
	}
	msg := p.name() + " (" + p.path + ") " + how + " without an error of its own"
	if said := p.stderr.String(); said != "" {
		msg += "; its stderr ends: " + said
	}
	return p.failed(exit, "%s", msg).WithDetails(map[string]any{"tool": p.c.Tool, "path": p.path, "exitCode": exit.ExitCode()})
}

// stopped is a call whose context ended first: interrupted (exit 130) when
// it was cancelled (Ctrl-C, SIGTERM, a cancelled execute), tool_failed when
// its deadline passed.
func (p *process) stopped(ctx context.Context) *clierr.Error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return p.failed(ctx.Err(), "%s did not finish in time: %v", p.name(), ctx.Err())
	}
	ce := clierr.New(errcode.CodeInterrupted, "interrupted while %s ran", p.name()).Wrap(ctx.Err())
	ce.Exit = clierr.ExitInterrupted
	return ce
}

func (p *process) failed(cause error, format string, args ...any) *clierr.Error {
	return clierr.New(errcode.CodeToolFailed, format, args...).Wrap(cause).
		WithDetails(map[string]any{"tool": p.c.Tool, "path": p.path})
}

// MismatchDetails are the details of a tool_protocol_mismatch error: the
// callee's side (Tool, Path, Protocol) as the callee reports it, and the
// caller's side, which the caller adds when it passes the error on.
type MismatchDetails struct {
	Tool           string `json:"tool"`
	Path           string `json:"path,omitempty"`
	Protocol       string `json:"protocol"`
	Caller         string `json:"caller,omitempty"`
	CallerPath     string `json:"callerPath,omitempty"`
	CallerProtocol string `json:"callerProtocol"`
}

func (d MismatchDetails) asMap() map[string]any {
	m := map[string]any{"tool": d.Tool, "protocol": d.Protocol, "callerProtocol": d.CallerProtocol}
	for k, v := range map[string]string{"path": d.Path, "caller": d.Caller, "callerPath": d.CallerPath} {
		if v != "" {
			m[k] = v
		}
	}
	return m
}

// mismatch is the caller's error for a callee that refused the call for
// speaking protocol theirs: both binaries and both versions.
func (p *process) mismatch(theirs string) *clierr.Error {
	if theirs == "" {
		theirs = "another"
	}
	caller, callerPath := self()
	d := MismatchDetails{Tool: p.c.Tool, Path: p.path, Protocol: theirs, Caller: caller, CallerPath: callerPath, CallerProtocol: Version}
	return clierr.New(errcode.CodeToolProtocolMismatch,
		"%s (%s) speaks tool protocol %s, but the %s it runs (%s) speaks %s: the two come from different installs; %s",
		caller, callerPath, Version, p.c.Tool, p.path, theirs, installHint).WithDetails(d.asMap())
}

// installHint says how to end a mismatch, on both sides.
const installHint = "install all Stratos binaries together (scripts/install)"
