package adaptertest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/proctest"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
)

// cases are the conformance cases, in the order they run.
var cases = []conformanceCase{
	{name: "MultiTurnMemory", run: multiTurnMemory},
	{name: "InstructionsOncePerSession", run: instructionsOncePerSession},
	{name: "ToolCallRunByTheHarness", needs: executesTools, run: toolCallRunByTheHarness},
	{name: "BeforeToolCallAllow", needs: toolHooks, run: beforeToolCallAllow},
	{name: "BeforeToolCallDenyWithFeedback", needs: toolHooks, run: beforeToolCallDeny},
	{name: "BeforeToolCallModifiesArguments", needs: modifiesArguments, run: beforeToolCallModify},
	{name: "AfterToolCallBlock", needs: toolHooks, run: afterToolCallBlock},
	{name: "AfterToolCallSeesAndBlocksAFailure", needs: blocksFailures, run: afterToolCallSeesAFailure},
	{name: "AfterToolCallReplacesAFailure", needs: replacesFailures, run: afterToolCallReplacesAFailure},
	{name: "HookExceptionFailsTheInvocation", needs: toolHooks, run: hookExceptionFails},
	{name: "StructuredOutput", run: structuredOutput},
	{name: "StructuredOutputMismatch", needs: nativeStructuredOutput, run: structuredOutputMismatch},
	{name: "StructuredOutputRecovers", needs: nativeStructuredOutput, run: structuredOutputRecovers},
	{name: "CancelDuringALongTool", run: cancelDuringALongTool},
	{name: "CancelWithOnlyBackgroundWork", needs: cancelsBackground, run: cancelBackgroundOnly},
	{name: "CloseLeavesNoProcess", run: closeLeavesNoProcess},
	{name: "ModelUnavailableIsARejection", needs: selectsModels, run: modelUnavailable},
	{name: "MissingAuthentication", needs: checksAuthentication, run: missingAuthentication},
	{name: "UsageReported", needs: reportsUsage, run: usageReported},
	{name: "ResumeContinuesTheSession", needs: resumesSessions, run: resumeContinuesTheSession},
}

func multiTurnMemory(t *testing.T, b *bed) {
	b.start(Script{Turns: []Turn{{Marker: "[one]", Text: "first answer"}, {Marker: "[two]", Text: "second answer"}}})
	a := b.open(nil, nil)
	if got := b.execute(a, "[one] hello").Text; got != "first answer" {
		t.Fatalf("first reply %q", got)
	}
	if got := b.execute(a, "[two] and now").Text; got != "second answer" {
		t.Fatalf("second reply %q", got)
	}
	second := b.requestsFor("[two] and now")
	if len(second) == 0 {
		t.Fatalf("the model never received the second prompt")
	}
	if c := second[0].Conversation; !strings.Contains(c, "[one] hello") || !strings.Contains(c, "first answer") {
		t.Errorf("the second request lacks the first exchange: %q", c)
	}
}

func instructionsOncePerSession(t *testing.T, b *bed) {
	const sys, wt = "SYSTEM-PROMPT-7f3a: you are the conformance agent.", "WORKTREE-CONTEXT-91c2: you work in a managed checkout."
	b.start(Script{Turns: []Turn{{Marker: "[one]", Text: "a"}, {Marker: "[two]", Text: "b"}}})
	a := b.open(nil, func(s *adapter.Spec) { s.SystemPrompt, s.HarnessContext = sys, wt })
	b.execute(a, "[one] x")
	b.execute(a, "[two] y")
	reqs := b.env.Requests()
	if len(reqs) < 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	for i, r := range reqs {
		instr := strings.Join(r.System, "\n")
		si, wi := strings.Index(instr, sys), strings.Index(instr, wt)
		if si < 0 || wi < si || strings.Count(instr, wt) != 1 {
			t.Errorf("request %d: instructions must hold the system prompt, then the worktree context, once: %q", i+1, instr)
		}
		if strings.Contains(r.Conversation, wt) || strings.Contains(r.Conversation, sys) {
			t.Errorf("request %d: the instructions were sent as conversation messages", i+1)
		}
	}
}

// shellTurn is a turn running command and answering FINAL.
func shellTurn(marker, command string) Turn {
	return Turn{Marker: marker, Shell: &Shell{Command: command}, Text: "FINAL"}
}

func toolCallRunByTheHarness(t *testing.T, b *bed) {
	b.start(Script{Turns: []Turn{shellTurn("[run]", "echo from-the-shell && touch ran.txt")}})
	a := b.open(nil, nil)
	if got := b.execute(a, "[run] go").Text; got != "FINAL" {
		t.Fatalf("reply %q", got)
	}
	tr := b.toolResults("[run] go")
	if len(tr) != 1 || !strings.Contains(tr[0].Content, "from-the-shell") || tr[0].IsError {
		t.Errorf("tool results %+v, want the command's real output", tr)
	}
	if _, err := os.Stat(filepath.Join(b.env.Spec().WorkingDirectory, "ran.txt")); err != nil {
		t.Errorf("the command did not run in the working directory: %v", err)
	}
	if len(b.EventsOf(eventapi.TypeToolStarted)) != 1 || len(b.EventsOf(eventapi.TypeToolCompleted)) != 1 {
		t.Errorf("tool events: %d started, %d completed", len(b.EventsOf(eventapi.TypeToolStarted)), len(b.EventsOf(eventapi.TypeToolCompleted)))
	}
}

func beforeToolCallAllow(t *testing.T, b *bed) {
	b.start(Script{Turns: []Turn{shellTurn("[allow]", "echo allowed-output")}})
	hooks := &Hooks{}
	a := b.open(hooks, nil)
	b.execute(a, "[allow] go")
	if seen := hooks.Seen(); len(seen) != 2 || !strings.HasPrefix(seen[0], "before ") || !strings.HasPrefix(seen[1], "after ") {
		t.Fatalf("hook calls %v, want before then after", seen)
	}
	if tr := b.toolResults("[allow] go"); len(tr) != 1 || tr[0].IsError {
		t.Errorf("an allowed call's result %+v", tr)
	}
}

func beforeToolCallDeny(t *testing.T, b *bed) {
	b.start(Script{Turns: []Turn{shellTurn("[deny]", "touch denied.txt")}})
	hooks := &Hooks{Before: func(adapter.ToolCall) (agentproto.BeforeToolCallResult, error) {
		return agentproto.BeforeToolCallResult{Action: agentproto.ActionDeny, Reason: "not allowed by policy 42"}, nil
	}}
	a := b.open(hooks, nil)
	b.execute(a, "[deny] go")
	tr := b.toolResults("[deny] go")
	if len(tr) != 1 || !strings.Contains(tr[0].Content, "not allowed by policy 42") {
		t.Errorf("tool results %+v, want the denial's reason as feedback", tr)
	}
	if _, err := os.Stat(filepath.Join(b.env.Spec().WorkingDirectory, "denied.txt")); err == nil {
		t.Errorf("the denied command ran")
	}
	if seen := hooks.Seen(); slices.ContainsFunc(seen, func(s string) bool { return strings.HasPrefix(s, "after ") }) {
		t.Errorf("afterToolCall ran for a call that never ran: %v", seen)
	}
}

func beforeToolCallModify(t *testing.T, b *bed) {
	b.start(Script{Turns: []Turn{shellTurn("[modify]", "echo original")}})
	hooks := &Hooks{Before: func(c adapter.ToolCall) (agentproto.BeforeToolCallResult, error) {
		var in map[string]any
		if err := json.Unmarshal(c.Input, &in); err != nil {
			return agentproto.BeforeToolCallResult{}, err
		}
		for k, v := range in {
			if s, ok := v.(string); ok && strings.Contains(s, "echo original") {
				in[k] = strings.Replace(s, "echo original", "echo modified", 1)
			}
		}
		args, _ := json.Marshal(in)
		return agentproto.BeforeToolCallResult{Action: agentproto.ActionModify, Arguments: args}, nil
	}}
	a := b.open(hooks, nil)
	b.execute(a, "[modify] go")
	tr := b.toolResults("[modify] go")
	if len(tr) != 1 || !strings.Contains(tr[0].Content, "modified") || strings.Contains(tr[0].Content, "original") {
		t.Errorf("tool results %+v, want the modified command's output", tr)
	}
}

func afterToolCallBlock(t *testing.T, b *bed) {
	b.start(Script{Turns: []Turn{shellTurn("[block]", "echo secret-output-5d1")}})
	hooks := &Hooks{After: func(_ adapter.ToolCall, out json.RawMessage, _ *agentproto.ToolError) (agentproto.AfterToolCallResult, error) {
		if strings.Contains(string(out), "secret-output-5d1") {
			return agentproto.AfterToolCallResult{Action: agentproto.ActionBlock, Reason: "output withheld by policy"}, nil
		}
		return agentproto.AfterToolCallResult{}, nil
	}}
	a := b.open(hooks, nil)
	b.execute(a, "[block] go")
	tr := b.toolResults("[block] go")
	if len(tr) != 1 || !strings.Contains(tr[0].Content, "output withheld by policy") || strings.Contains(tr[0].Content, "secret-output-5d1") {
		t.Errorf("tool results %+v, want the reason instead of the output", tr)
	}
}

// failingTurn runs a command that fails with a recognisable error.
func failingTurn(marker string) Turn {
	return Turn{Marker: marker, Shell: &Shell{Command: "echo failure-detail-8e4 >&2; exit 3", Fails: true}, Text: "FINAL"}
}

func afterToolCallSeesAFailure(t *testing.T, b *bed) {
	b.start(Script{Turns: []Turn{failingTurn("[fail]")}})
	var got *agentproto.ToolError
	hooks := &Hooks{After: func(_ adapter.ToolCall, _ json.RawMessage, e *agentproto.ToolError) (agentproto.AfterToolCallResult, error) {
		got = e
		return agentproto.AfterToolCallResult{Action: agentproto.ActionBlock, Reason: "failure reviewed by policy"}, nil
	}}
	a := b.open(hooks, nil)
	b.execute(a, "[fail] go")
	if got == nil || got.Message == "" {
		t.Fatalf("afterToolCall did not receive the failed call's error (%+v)", got)
	}
	tr := b.toolResults("[fail] go")
	if len(tr) != 1 || !strings.Contains(tr[0].Content, "failure reviewed by policy") {
		t.Errorf("tool results %+v, want the hook's reason in the failed call's result", tr)
	}
}

func afterToolCallReplacesAFailure(t *testing.T, b *bed) {
	b.start(Script{Turns: []Turn{failingTurn("[fail]")}})
	hooks := &Hooks{After: func(_ adapter.ToolCall, _ json.RawMessage, e *agentproto.ToolError) (agentproto.AfterToolCallResult, error) {
		return agentproto.AfterToolCallResult{Action: agentproto.ActionBlock, Reason: "failure withheld by policy"}, nil
	}}
	a := b.open(hooks, nil)
	b.execute(a, "[fail] go")
	tr := b.toolResults("[fail] go")
	if len(tr) != 1 || !strings.Contains(tr[0].Content, "failure withheld by policy") || strings.Contains(tr[0].Content, "failure-detail-8e4") {
		t.Errorf("tool results %+v, want the reason instead of the error", tr)
	}
}

func hookExceptionFails(t *testing.T, b *bed) {
	b.start(Script{Turns: []Turn{shellTurn("[boom]", "touch ran.txt"), {Marker: "[after]", Text: "still here"}}})
	hookErr := agentproto.Errorf(agentproto.CodeHookFailed, "beforeToolCall hook of agent \"tester\" failed: kaboom")
	hooks := &Hooks{Before: func(adapter.ToolCall) (agentproto.BeforeToolCallResult, error) {
		return agentproto.BeforeToolCallResult{}, hookErr
	}}
	a := b.open(hooks, nil)
	_, err := a.Execute(b.ctx(), "[boom] go")
	if agentproto.CodeOf(err) != agentproto.CodeHookFailed || !strings.Contains(err.Error(), "kaboom") {
		t.Fatalf("execute error %v, want the hook's error", err)
	}
	if _, err := os.Stat(filepath.Join(b.env.Spec().WorkingDirectory, "ran.txt")); err == nil {
		t.Errorf("the tool ran although its hook failed")
	}
	hooks.setBefore(nil)
	if got := b.execute(a, "[after] hi").Text; got != "still here" {
		t.Errorf("the next execute after a hook failure: %q", got)
	}
}

var personSchema = json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}},"required":["name","age"],"additionalProperties":false}`)

func structuredOutput(t *testing.T, b *bed) {
	b.start(Script{Turns: []Turn{{Marker: "[person]", Value: json.RawMessage(`{"name":"Ada","age":36}`)}}})
	hooks := &Hooks{}
	a := b.open(hooks, func(s *adapter.Spec) { s.OutputSchema = personSchema })
	res := b.execute(a, "[person] give me one")
	var v map[string]any
	if err := json.Unmarshal(res.Value, &v); err != nil || v["name"] != "Ada" || v["age"] != 36.0 {
		t.Fatalf("value %s (%v)", res.Value, err)
	}
	if len(hooks.Seen()) != 0 {
		t.Errorf("the harness's structured-output delivery reached author hooks: %v", hooks.Seen())
	}
}

func structuredOutputMismatch(t *testing.T, b *bed) {
	bad := json.RawMessage(`{"name":"Ada","age":"old"}`)
	b.start(Script{Turns: []Turn{{Marker: "[bad]", Values: []json.RawMessage{bad, bad, bad, bad, bad, bad}}}})
	a := b.open(nil, func(s *adapter.Spec) { s.OutputSchema = personSchema })
	_, err := a.Execute(b.ctx(), "[bad] give me one")
	wantCode(t, err, agentproto.CodeStructuredOutput)
	if !strings.Contains(err.Error(), "age") {
		t.Errorf("the error does not name the failing field: %v", err)
	}
}

func structuredOutputRecovers(t *testing.T, b *bed) {
	b.start(Script{Turns: []Turn{{Marker: "[retry]", Values: []json.RawMessage{
		json.RawMessage(`{"name":"Ada"}`), json.RawMessage(`{"name":"Ada","age":36}`)}}}})
	a := b.open(nil, func(s *adapter.Spec) { s.OutputSchema = personSchema })
	res := b.execute(a, "[retry] give me one")
	if !strings.Contains(string(res.Value), `"age":36`) {
		t.Fatalf("value %s, want the second, valid attempt", res.Value)
	}
}

func cancelDuringALongTool(t *testing.T, b *bed) {
	long := newLongRun()
	b.start(Script{Turns: []Turn{{Marker: "[long]", Shell: &Shell{Command: long.command, Long: true}, Text: "never"},
		{Marker: "[next]", Text: "after cancel"}}})
	a := b.open(nil, nil)
	done := make(chan error, 1)
	go func() { _, err := a.Execute(b.ctx(), "[long] wait"); done <- err }()
	if b.caps.ExecutesTools {
		waitFor(t, "the long command to run", func() bool { return len(processesOf(t, long)) > 0 })
	} else {
		waitFor(t, "the long tool call to start", func() bool { return len(b.EventsOf(eventapi.TypeToolStarted)) > 0 })
	}
	a.Cancel()
	wantCode(t, <-done, agentproto.CodeCancelled)
	if b.caps.ExecutesTools {
		waitGone(t, "the cancelled command", func() []proctest.Process { return processesOf(t, long) })
	}
	if got := b.execute(a, "[next] go on").Text; got != "after cancel" {
		t.Errorf("execute after cancel: %q", got)
	}
}

func cancelBackgroundOnly(t *testing.T, b *bed) {
	long := newLongRun()
	b.start(Script{Turns: []Turn{{Marker: "[bg]", Shell: &Shell{Command: long.command, Background: true}, Text: "started it"},
		{Marker: "[next]", Text: "still usable"}}})
	a := b.open(nil, nil)
	b.execute(a, "[bg] start")
	if len(processesOf(t, long)) == 0 {
		t.Fatalf("the background command is not running after its turn")
	}
	if len(b.EventsOf(eventapi.TypeBackgroundStarted)) == 0 {
		t.Errorf("no %s event", eventapi.TypeBackgroundStarted)
	}
	a.Cancel() // no execute runs: only background work is live
	waitGone(t, "the background command after cancel", func() []proctest.Process { return processesOf(t, long) })
	if got := b.execute(a, "[next] go on").Text; got != "still usable" {
		t.Errorf("execute after cancelling background work: %q", got)
	}
}

func closeLeavesNoProcess(t *testing.T, b *bed) {
	long := newLongRun()
	turns := []Turn{{Marker: "[hello]", Text: "hi"}}
	if b.caps.BackgroundWork {
		turns = []Turn{{Marker: "[hello]", Shell: &Shell{Command: long.command, Background: true}, Text: "hi"}}
	}
	env := b.start(Script{Turns: turns})
	a, err := b.make(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Initialize(b.ctx()); err != nil {
		t.Fatal(err)
	}
	b.execute(a, "[hello] there")
	marker := env.ProcessMarker()
	if marker != "" && len(processesWithEnv(t, marker)) == 0 {
		t.Fatalf("no process carries the fixture's marker %s while the session is open", marker)
	}
	if err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if marker != "" {
		waitGone(t, "processes of the closed session", func() []proctest.Process { return processesWithEnv(t, marker) })
	}
	waitGone(t, "the background command", func() []proctest.Process { return processesOf(t, long) })
	if _, err := a.Execute(b.ctx(), "[hello] again"); err == nil {
		t.Errorf("a closed session executed a prompt")
	}
}

func modelUnavailable(t *testing.T, b *bed) {
	b.start(Script{Turns: []Turn{{Marker: "[gone]", ModelNotFound: true}}})
	a, err := b.make(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = a.Initialize(b.ctx())
	if err == nil {
		_, err = a.Execute(b.ctx(), "[gone] hello")
	}
	r, ok := rejection.As(err)
	if !ok || r.Reason != rejection.ModelUnavailable || !r.TryNext {
		t.Fatalf("error %v (rejection %+v), want a model-unavailable rejection that lets the selector try the next candidate", err, r)
	}
	if agentproto.CodeOf(err) != agentproto.CodeModelUnavailable {
		t.Errorf("code %s", agentproto.CodeOf(err))
	}
}

func missingAuthentication(t *testing.T, b *bed) {
	b.start(Script{NoCredentials: true, Turns: []Turn{{Marker: "[hello]", Text: "hi"}}})
	a, err := b.make(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = a.Initialize(b.ctx())
	if err == nil {
		_, err = a.Execute(b.ctx(), "[hello] there")
	}
	r, ok := rejection.As(err)
	if !ok || r.Reason != rejection.Authentication {
		t.Fatalf("error %v, want an authentication rejection", err)
	}
	if !strings.Contains(err.Error(), b.harness) {
		t.Errorf("the error does not name the harness: %v", err)
	}
	if n := len(b.env.Requests()); n != 0 {
		t.Errorf("the model was called %d times without credentials", n)
	}
}

func usageReported(t *testing.T, b *bed) {
	b.start(Script{Turns: []Turn{{Marker: "[one]", Text: "a"}}})
	a := b.open(nil, nil)
	b.execute(a, "[one] x")
	waitFor(t, "a usage event", func() bool { return len(b.EventsOf(eventapi.TypeUsage)) > 0 })
	d := b.EventsOf(eventapi.TypeUsage)[0].Details.(*eventapi.Usage)
	if d.InputTokens <= 0 || d.OutputTokens <= 0 {
		t.Errorf("usage details %+v, want input and output tokens", d)
	}
}
