package command

import (
	"bytes"
	"testing"

	"github.com/stratoscli/stratos/stratos-temporal/engine"
)

// The terminal shows each byte of the console output once: what each
// heartbeat adds, a gap when a heartbeat's tail no longer reaches what was
// printed, a new attempt from its start, and at the end what the result
// adds.
func TestFollowerShowsEachByteOnce(t *testing.T) {
	var out bytes.Buffer
	f := &follower{out: &out}
	f.show(engine.Progress{Worker: "w1", Attempt: 1, Total: 6, Tail: []byte("build\n")})
	f.show(engine.Progress{Worker: "w1", Attempt: 1, Total: 6, Tail: []byte("build\n")})
	f.show(engine.Progress{Worker: "w1", Attempt: 1, Total: 12, Tail: []byte("ild\nrun 1\n")})
	f.show(engine.Progress{Worker: "w1", Attempt: 1, Total: 30, Tail: []byte("late\n")})
	f.show(engine.Progress{Worker: "w2", Attempt: 2, Total: 4, Tail: []byte("re 1")})
	f.finish(engine.RunResult{Worker: "w2", Attempt: 2, Stderr: []byte("re 1\ndone\n")})
	want := "build\nrun 1\nstratos: [13 bytes of console output not shown]\nlate\n" +
		"stratos: the run's code goes on as attempt 2 on worker w2 (the finished agent work is not repeated)\nre 1\ndone\n"
	if got := out.String(); got != want {
		t.Errorf("terminal:\n%s\nwant:\n%s", got, want)
	}
}

// A result of an attempt the follower never saw starts over with it.
func TestFollowerFinishesALaterAttempt(t *testing.T) {
	var out bytes.Buffer
	f := &follower{out: &out}
	f.show(engine.Progress{Worker: "w1", Attempt: 1, Total: 3, Tail: []byte("one")})
	f.finish(engine.RunResult{Worker: "w2", Attempt: 2, Stderr: []byte("two\n")})
	want := "one" + "stratos: the run's code goes on as attempt 2 on worker w2 (the finished agent work is not repeated)\ntwo\n"
	if got := out.String(); got != want {
		t.Errorf("terminal %q, want %q", got, want)
	}
}

// A later attempt is said even when the first was never seen: its worker
// died before its first heartbeat reached the server.
func TestFollowerSaysALaterAttemptWithoutTheFirst(t *testing.T) {
	var out bytes.Buffer
	f := &follower{out: &out}
	f.show(engine.Progress{Worker: "w2", Attempt: 2, Total: 4, Tail: []byte("two\n")})
	f.show(engine.Progress{Worker: "w2", Attempt: 2, Total: 4, Tail: []byte("two\n")})
	want := "stratos: the run's code goes on as attempt 2 on worker w2 (the finished agent work is not repeated)\ntwo\n"
	if got := out.String(); got != want {
		t.Errorf("terminal %q, want %q", got, want)
	}
	out.Reset()
	g := &follower{out: &out}
	g.show(engine.Progress{Worker: "w1", Attempt: 1, Total: 4, Tail: []byte("one\n")})
	if got := out.String(); got != "one\n" {
		t.Errorf("a first attempt: %q", got)
	}
}
