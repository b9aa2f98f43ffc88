package qwen

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/fakemodel"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/adaptertest"
	"github.com/stratoscli/stratos/stratos-agent/adapters/acp"
)

func toolUse(t *testing.T, name string, in map[string]any) fakemodel.Block {
	t.Helper()
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	return fakemodel.Block{ToolUse: &fakemodel.ToolUse{Name: name, Input: b}}
}

// Every call Qwen Code runs goes through the author's hooks, its
// read-only tools too (they never ask session/request_permission): a
// denied read_file does not run and the model reads the reason, and Qwen
// Code's echo of the denial stays out of the reply.
func TestEveryToolCallGoesThroughTheHooks(t *testing.T) {
	done := "all done"
	work := t.TempDir()
	script := func(work string) fakemodel.Script {
		return fakemodel.Script{Turns: []fakemodel.Turn{
			{Match: fakemodel.Match{Marker: "[tools]"}, Reply: []fakemodel.Block{toolUse(t, "run_shell_command", map[string]any{"command": "echo shell-ran-3f1", "description": "x"})}},
			{Match: fakemodel.Match{Marker: "[tools]"}, Reply: []fakemodel.Block{toolUse(t, "read_file", map[string]any{"file_path": filepath.Join(work, "secret.txt")})}},
			{Match: fakemodel.Match{Marker: "[tools]"}, Reply: []fakemodel.Block{toolUse(t, "glob", map[string]any{"pattern": "*.txt", "path": work})}},
			{Match: fakemodel.Match{Marker: "[tools]"}, Reply: []fakemodel.Block{{Text: &done}}},
		}}
	}
	b := qwenBed(t, script(work), true)
	if err := os.WriteFile(filepath.Join(work, "secret.txt"), []byte("SECRET-CONTENT-9a2"), 0o600); err != nil {
		t.Fatal(err)
	}
	hooks := &adaptertest.Hooks{Before: func(c adapter.ToolCall) (agentproto.BeforeToolCallResult, error) {
		if c.Name == "read_file" {
			return agentproto.BeforeToolCallResult{Action: agentproto.ActionDeny, Reason: "reads are denied by policy 7"}, nil
		}
		return agentproto.BeforeToolCallResult{Action: agentproto.ActionAllow}, nil
	}}
	spec := adapter.Spec{Name: "tester", Models: []string{"openai/fake-model"}, WorkingDirectory: work}
	a := b.Open(NewFactory(b.options()), spec, hooks)
	res, err := a.Execute(b.Context(), "[tools] go")
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != done {
		t.Errorf("reply %q, want %q alone", res.Text, done)
	}
	want := []string{"before run_shell_command", "after run_shell_command", "before read_file", "before glob", "after glob"}
	if seen := hooks.Seen(); !slices.Equal(seen, want) {
		t.Errorf("hook calls %v, want %v", seen, want)
	}
	var results []string
	for _, r := range chatRequests(b.Server.Log().Entries()) {
		for _, tr := range r.ToolResults {
			results = append(results, tr.Content)
		}
	}
	if len(results) != 3 || !strings.Contains(results[0], "shell-ran-3f1") || !strings.Contains(results[1], "reads are denied by policy 7") ||
		strings.Contains(strings.Join(results, "\n"), "SECRET-CONTENT-9a2") {
		t.Errorf("tool results %q", results)
	}
	var denied int
	for _, e := range b.EventsOf(eventapi.TypeToolCompleted) {
		if d, ok := e.Details.(*eventapi.ToolCompleted); ok && d.Status == "denied" && d.Reason == "reads are denied by policy 7" {
			denied++
		}
	}
	if denied != 1 {
		t.Errorf("%d denied tool.completed events, want 1", denied)
	}
}

// A beforeToolCall that modifies the input fails the execute (Qwen Code's
// ACP session would run the model's input), and the call does not run.
func TestModifyingAnInputFailsTheExecute(t *testing.T) {
	b := qwenBed(t, adaptertest.FakeScript([]adaptertest.Turn{{Marker: "[modify]", Shell: &adaptertest.Shell{Command: "touch ran.txt"}, Text: "FINAL"}}, qwenTools), true)
	hooks := &adaptertest.Hooks{Before: func(c adapter.ToolCall) (agentproto.BeforeToolCallResult, error) {
		return agentproto.BeforeToolCallResult{Action: agentproto.ActionModify, Arguments: json.RawMessage(`{"command":"echo other"}`)}, nil
	}}
	spec := adapter.Spec{Name: "tester", Models: []string{"openai/fake-model"}, WorkingDirectory: b.Work}
	a := b.Open(NewFactory(b.options()), spec, hooks)
	_, err := a.Execute(b.Context(), "[modify] go")
	if agentproto.CodeOf(err) != agentproto.CodeConfiguration || !strings.Contains(err.Error(), "cannot modify") {
		t.Fatalf("execute error %v, want a configuration error", err)
	}
	if _, err := os.Stat(filepath.Join(b.Work, "ran.txt")); err == nil {
		t.Errorf("the call ran although its modification was refused")
	}
}

// The relay blocks the call when the agent host does not answer: a
// PreToolUse hook exits 2 (Qwen Code runs nothing), a PostToolUse hook
// withholds the result; an exit code of 1 would let the call through.
func TestTheRelayFailsClosed(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node on PATH")
	}
	dir := t.TempDir()
	if err := os.WriteFile(acp.RelayPath(dir), relaySource, 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(event string) (string, int) {
		cmd := exec.Command(node, acp.RelayPath(dir))
		// Port 1 on loopback: nothing listens there.
		cmd.Env = append(os.Environ(), acp.RelayURLVar+"=http://127.0.0.1:1/hook", acp.RelayTokenVar+"=t")
		cmd.Stdin = strings.NewReader(`{"hook_event_name":"` + event + `","tool_name":"run_shell_command"}`)
		out, _ := cmd.Output()
		return string(out), cmd.ProcessState.ExitCode()
	}
	if out, code := run("PreToolUse"); code != 2 || out != "" {
		t.Errorf("PreToolUse: exit %d, stdout %q; want exit 2", code, out)
	}
	out, code := run("PostToolUse")
	var post postToolUseOutput
	if code != 0 || json.Unmarshal([]byte(out), &post) != nil || post.Continue || !strings.Contains(post.StopReason, "could not run the tool hook") {
		t.Errorf("PostToolUse: exit %d, stdout %q; want continue false with the reason", code, out)
	}
}
