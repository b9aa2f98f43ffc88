package codex

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
)

// shellScript is a turn that runs cmd through Codex's shell tool, then
// answers "done".
func shellScript(marker, cmd string) string {
	c, _ := json.Marshal(cmd)
	return `{"match":{"marker":"` + marker + `"},"reply":[{"toolUse":{"name":"exec_command","input":{"cmd":` + string(c) + `}}}]},
		{"match":{"marker":"` + marker + `"},"reply":[{"text":"done"}]}`
}

func (b *bed) exists(name string) bool {
	_, err := os.Stat(filepath.Join(b.Work, name))
	return err == nil
}

func TestBeforeToolCallDenyKeepsTheCommandFromRunning(t *testing.T) {
	b := newBed(t, `{"turns":[`+shellScript("[deny]", "touch ran.txt")+`]}`)
	h := &recHooks{before: func(c adapter.ToolCall) (agentproto.BeforeToolCallResult, error) {
		return agentproto.BeforeToolCallResult{Action: agentproto.ActionDeny, Reason: "no shell today"}, nil
	}}
	a := b.open(h, nil)
	if res, err := a.Execute(b.Context(), "[deny] go"); err != nil || res.Text != "done" {
		t.Fatalf("execute = %+v, %v", res, err)
	}
	if b.exists("ran.txt") {
		t.Error("the denied command ran")
	}
	reqs := b.RequestsWith("[deny]")
	if r := reqs[len(reqs)-1].ToolResults; len(r) != 1 || !strings.Contains(r[0].Content, "no shell today") {
		t.Errorf("the model did not get the denial's reason: %+v", r)
	}
	if calls := h.calls(); len(calls) == 0 || calls[0] != `before Bash {"command":"touch ran.txt"}` {
		t.Errorf("hook calls = %q", calls)
	}
}

func TestBeforeToolCallModifyRewritesTheCommand(t *testing.T) {
	b := newBed(t, `{"turns":[`+shellScript("[modify]", "touch original.txt")+`]}`)
	h := &recHooks{before: func(c adapter.ToolCall) (agentproto.BeforeToolCallResult, error) {
		return agentproto.BeforeToolCallResult{Action: agentproto.ActionModify, Arguments: json.RawMessage(`{"command":"touch rewritten.txt"}`)}, nil
	}}
	a := b.open(h, nil)
	if _, err := a.Execute(b.Context(), "[modify] go"); err != nil {
		t.Fatal(err)
	}
	if b.exists("original.txt") || !b.exists("rewritten.txt") {
		t.Errorf("original ran: %t, rewritten ran: %t", b.exists("original.txt"), b.exists("rewritten.txt"))
	}
}

func TestAfterToolCallBlockWithholdsTheOutput(t *testing.T) {
	b := newBed(t, `{"turns":[`+shellScript("[block]", "echo secret-output")+`]}`)
	h := &recHooks{after: func(c adapter.ToolCall, out json.RawMessage) (agentproto.AfterToolCallResult, error) {
		if !strings.Contains(string(out), "secret-output") {
			t.Errorf("afterToolCall saw %s", out)
		}
		return agentproto.AfterToolCallResult{Action: agentproto.ActionBlock, Reason: "withheld by policy"}, nil
	}}
	a := b.open(h, nil)
	if _, err := a.Execute(b.Context(), "[block] go"); err != nil {
		t.Fatal(err)
	}
	reqs := b.RequestsWith("[block]")
	r := reqs[len(reqs)-1].ToolResults
	if len(r) != 1 || strings.Contains(r[0].Content, "secret-output") || !strings.Contains(r[0].Content, "withheld by policy") {
		t.Errorf("tool result = %+v", r)
	}
}

func TestAHookExceptionFailsTheInvocationAndTheToolDoesNotRun(t *testing.T) {
	b := newBed(t, `{"turns":[`+shellScript("[boom]", "touch ran.txt")+`,
		{"match":{"marker":"[after]"},"reply":[{"text":"still usable"}]}]}`)
	boom := agentproto.Errorf(agentproto.CodeHookFailed, "beforeToolCall threw: boom")
	h := &recHooks{before: func(c adapter.ToolCall) (agentproto.BeforeToolCallResult, error) {
		return agentproto.BeforeToolCallResult{}, boom
	}}
	a := b.open(h, nil)
	_, err := a.Execute(b.Context(), "[boom] go")
	if !errors.Is(err, boom) {
		t.Fatalf("execute error = %v, want the hook's error", err)
	}
	if b.exists("ran.txt") {
		t.Error("the command ran although its beforeToolCall hook threw")
	}
	h.before = nil
	if res, err := a.Execute(b.Context(), "[after] again"); err != nil || res.Text != "still usable" {
		t.Fatalf("next execute = %+v, %v", res, err)
	}
}

// An afterToolCall that throws comes after the tool ran: the execute
// rejects with the hook's error (the turn is interrupted), and the thread
// stays usable (docs/harness-codex.md, Hooks).
func TestAnAfterToolCallExceptionFailsTheInvocationAfterTheToolRan(t *testing.T) {
	b := newBed(t, `{"turns":[`+shellScript("[boom]", "touch ran.txt")+`,
		{"match":{"marker":"[after]"},"reply":[{"text":"still usable"}]}]}`)
	boom := agentproto.Errorf(agentproto.CodeHookFailed, "afterToolCall threw: boom")
	h := &recHooks{after: func(adapter.ToolCall, json.RawMessage) (agentproto.AfterToolCallResult, error) {
		return agentproto.AfterToolCallResult{}, boom
	}}
	a := b.open(h, nil)
	_, err := a.Execute(b.Context(), "[boom] go")
	if !errors.Is(err, boom) {
		t.Fatalf("execute error = %v, want the hook's error", err)
	}
	if !b.exists("ran.txt") {
		t.Error("the command did not run, although only its afterToolCall hook threw")
	}
	h.mu.Lock()
	h.after = nil
	h.mu.Unlock()
	if res, err := a.Execute(b.Context(), "[after] again"); err != nil || res.Text != "still usable" {
		t.Fatalf("next execute = %+v, %v", res, err)
	}
}

func TestAfterToolCallSeesAFailedCommandAndBlockReplacesItsError(t *testing.T) {
	b := newBed(t, `{"turns":[`+shellScript("[fail]", "echo failure-detail >&2; exit 3")+`]}`)
	var got *agentproto.ToolError
	h := &recHooks{}
	h.afterErr = func(e *agentproto.ToolError) (agentproto.AfterToolCallResult, error) {
		got = e
		return agentproto.AfterToolCallResult{Action: agentproto.ActionBlock, Reason: "failure reviewed"}, nil
	}
	a := b.open(h, nil)
	if _, err := a.Execute(b.Context(), "[fail] go"); err != nil {
		t.Fatal(err)
	}
	if got == nil || !strings.Contains(got.Message, "failure-detail") || !strings.Contains(got.Message, "exit code 3") {
		t.Fatalf("afterToolCall got error %+v", got)
	}
	reqs := b.RequestsWith("[fail]")
	if r := reqs[len(reqs)-1].ToolResults; len(r) != 1 || !strings.Contains(r[0].Content, "failure reviewed") || strings.Contains(r[0].Content, "failure-detail") {
		t.Errorf("tool results = %+v", r)
	}
}

func TestApplyPatchRunsThroughTheHooks(t *testing.T) {
	patch := `*** Begin Patch\n*** Add File: patched.txt\n+hello from patch\n*** End Patch\n`
	b := newBed(t, `{"turns":[
		{"match":{"marker":"[patch]"},"reply":[{"customToolCall":{"name":"apply_patch","input":"`+patch+`"}}]},
		{"match":{"marker":"[patch]"},"reply":[{"text":"patched"}]}]}`)
	h := &recHooks{}
	a := b.open(h, func(s *adapter.Spec) { s.Models = []string{"openai/gpt-5.5"} })
	if res, err := a.Execute(b.Context(), "[patch] add a file"); err != nil || res.Text != "patched" {
		t.Fatalf("execute = %+v, %v", res, err)
	}
	if !b.exists("patched.txt") {
		t.Error("the patch was not applied")
	}
	calls := h.calls()
	if len(calls) != 2 || !strings.HasPrefix(calls[0], "before apply_patch ") || calls[1] != "after apply_patch" {
		t.Errorf("hook calls = %q", calls)
	}
	if ev := b.EventsOf("tool.completed"); len(ev) != 1 || ev[0].Details.(*eventapi.ToolCompleted).ToolName != "apply_patch" {
		t.Errorf("tool.completed = %+v", ev)
	}
}
