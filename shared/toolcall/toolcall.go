// Package toolcall is the protocol by which one Stratos tool calls another,
// both sides of it. Tools never import each other: the caller runs the
// callee's binary (found by shared/sibling) with --json, writes a JSON
// document on its stdin when the command takes one, and reads its answer
// from stdout: one JSON document (Run) or JSON lines (Lines). A failure is
// the callee's error envelope (shared/clierr), whose code reaches the
// caller's error unchanged.
//
// The caller states the protocol Version it speaks in the callee's
// environment (EnvVersion); the callee's entry checks it (Accept, which
// shared/cliapp runs for every tool) and answers tool_protocol_mismatch
// before doing anything when it speaks another, so that a stale binary of
// another install fails with both binaries and both versions named instead
// of with an answer that does not decode. The statement costs nothing: no
// extra process, no extra round trip.
//
// With STRATOS_DEBUG_WIRE=1 every call is logged on stderr through
// shared/wirelog, as the agent host's JSON-RPC is: the callee's argv (never
// its environment), what it read on stdin, what it printed on stdout and
// how it ended. docs/design/tool-calls.md says why the protocol is so.
package toolcall

import (
	"context"
	"encoding/json"
	"io"
	"time"
)

// Version is the version of the protocol this build speaks. It changes
// when the protocol itself changes in a way that would make a binary of
// another version misread a call or an answer (how arguments, input,
// answers or errors travel); a new field in a result type is no such
// change.
const Version = "1"

// EnvVersion is the variable in which a caller states the Version it
// speaks, set in the callee's environment only.
const EnvVersion = "STRATOS_TOOL_PROTOCOL"

// DefaultMaxOutput bounds what a call reads of the callee's stdout (Run) or
// of one of its lines (Lines) when the Call sets no MaxOutput. Answers are
// kilobytes; a runaway tool ends in an error naming it, not in this
// process's memory.
const DefaultMaxOutput = 64 << 20

// Call is one call of a Stratos tool.
type Call struct {
	// Tool is the callee's binary, e.g. worktreeapi.Tool.
	Tool string
	// Args are its arguments, --json among them.
	Args []string
	// Input, when not nil, is encoded as JSON on the callee's stdin (a
	// json.RawMessage is sent as it is); without it stdin is empty.
	Input any
	// Stderr receives the callee's stderr as it comes (its progress and
	// warnings); nil discards it. Its end is also kept, bounded, for the
	// error of a failure without an error envelope.
	Stderr io.Writer
	// MaxOutput bounds the callee's stdout (Run) or each of its lines
	// (Lines); 0 means DefaultMaxOutput. More stops the callee and fails
	// the call.
	MaxOutput int64
	// AnswersOnFailure says the callee prints its answer also when it
	// exits 1 (validate-config lists the problems it found and exits 1):
	// then stdout that is no error envelope is decoded as on success.
	AnswersOnFailure bool
	// StopGrace, when not zero, lets the callee stop in order: the
	// cancellation of the call and the death of this process send it
	// SIGTERM instead of SIGKILL, and what still runs StopGrace after a
	// cancellation is killed (a run that cancels its workflow and records
	// how it ended). Zero ends it at once.
	StopGrace time.Duration
	// Started, when not nil, hears the callee's process ID once it runs.
	Started func(pid int)
	// WireLog is where STRATOS_DEBUG_WIRE=1 logs the call; nil means this
	// process's stderr.
	WireLog io.Writer
}

// Run calls the tool and decodes its answer, the JSON document on its
// stdout, into out (nil: the answer is not read).
//
// Its error is a *clierr.Error: the callee's own error envelope when it
// printed one (its code, message and details unchanged, its exit status as
// Exit); tool_protocol_mismatch when the callee speaks another Version;
// interrupted (exit 130) when ctx was cancelled, which ends the callee at
// once; tool_not_found or tool_failed, naming the tool, otherwise.
func Run(ctx context.Context, c Call, out any) error {
	callCtx, stop := context.WithCancel(ctx)
	defer stop()
	stdout := &capped{limit: c.maxOutput(), stop: stop}
	p, err := c.start(callCtx, stdout)
	if err != nil {
		return err
	}
	waitErr := p.wait()
	p.logAnswer(stdout.Bytes())
	tooLarge := stdout.tooLarge()
	p.logEnd(ctx, waitErr, tooLarge)
	var decode func() error
	if out != nil {
		decode = func() error { return json.Unmarshal(stdout.Bytes(), out) }
	}
	return p.outcome(ctx, waitErr, tooLarge, stdout.Bytes(), decode)
}

// Lines calls the tool as Run does and hands each line of its stdout to
// each as it comes, for commands that print JSON lines (`stratos-run runs
// logs --json`, which --follow keeps printing while the run lasts). A line
// longer than MaxOutput stops the callee and fails the call. The error is
// Run's; the callee's error envelope, a line of its own, is also handed to
// each.
func Lines(ctx context.Context, c Call, each func(line []byte)) error {
	callCtx, stop := context.WithCancel(ctx)
	defer stop()
	r, w := io.Pipe()
	p, err := c.start(callCtx, w)
	if err != nil {
		return err
	}
	waited := make(chan error, 1)
	go func() {
		err := p.wait()
		w.Close() // Wait returns once everything the callee printed was read
		waited <- err
	}()
	last, tooLarge := p.readLines(r, stop, each)
	_, _ = io.Copy(io.Discard, r) // what a stopped callee still printed
	waitErr := <-waited
	p.logEnd(ctx, waitErr, tooLarge)
	return p.outcome(ctx, waitErr, tooLarge, last, nil)
}

func (c Call) maxOutput() int64 {
	if c.MaxOutput > 0 {
		return c.MaxOutput
	}
	return DefaultMaxOutput
}
