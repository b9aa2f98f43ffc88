package host

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/jsonrpc"
)

// fixture is a host on pipes, driven by a JSON-RPC client like the SDK.
type fixture struct {
	t       *testing.T
	client  *jsonrpc.Conn
	dir     string // the workflow directory
	runDir  string
	hooks   map[string]func(json.RawMessage) (any, error)
	events  chan eventapi.Event
	closeIn func()
	mu      sync.Mutex
	calls   map[string]int // executes sent per agent
}

// start writes workflow.yaml with the given agents section and starts a
// host with the given limits.
func start(t *testing.T, agentsYAML string, limits agentproto.Settings) *fixture {
	t.Helper()
	return startWith(t, agentsYAML, limits, nil)
}

// startWith is start with the given harnesses (nil: the built-in ones).
func startWith(t *testing.T, agentsYAML string, limits agentproto.Settings, hs func(adapter.Options) []adapter.Harness) *fixture {
	t.Helper()
	dir := t.TempDir()
	yaml := "name: wf\nshortDescription: x\nlongDescription: x\nmcp:\n  servers:\n    github: {}\nagents:\n" + agentsYAML
	if err := os.WriteFile(filepath.Join(dir, "workflow.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := New(Options{Home: t.TempDir(), Harnesses: hs, Candidates: func(context.Context, []string) ([]candidate, error) { return nil, nil }})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	hostConn := jsonrpc.New(inR, outW, h.Handle, func(err error) { t.Logf("host: %v", err) })
	h.SetPeer(hostConn)
	f := &fixture{t: t, dir: dir, runDir: filepath.Join(t.TempDir(), "run"), hooks: map[string]func(json.RawMessage) (any, error){},
		events: make(chan eventapi.Event, 1000), calls: map[string]int{}}
	f.client = jsonrpc.New(outR, inW, f.handle, func(err error) { t.Logf("client: %v", err) })
	served := make(chan struct{})
	go func() {
		_ = hostConn.Serve(context.Background())
		_ = h.Close(context.Background())
		_ = outW.Close()
		close(served)
	}()
	go func() { _ = f.client.Serve(context.Background()) }()
	f.closeIn = func() { _ = inW.Close(); <-served }
	t.Cleanup(f.closeIn)
	var res agentproto.InitializeResult
	err = f.client.Call(context.Background(), agentproto.MethodInitialize, agentproto.InitializeParams{
		ProtocolVersion: agentproto.ProtocolVersion, ExecutionID: "top", RunDir: f.runDir, Settings: &limits, Events: true}, &res)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) handle(_ context.Context, method string, params json.RawMessage) (any, error) {
	if method == agentproto.MethodEvent {
		var e eventapi.Event
		_ = json.Unmarshal(params, &e)
		f.events <- e
		return nil, nil
	}
	f.mu.Lock()
	h := f.hooks[method]
	f.mu.Unlock()
	if h == nil {
		f.t.Errorf("unexpected call %s", method)
		return nil, nil
	}
	return h(params)
}

func (f *fixture) onHook(method string, h func(json.RawMessage) (any, error)) {
	f.mu.Lock()
	f.hooks[method] = h
	f.mu.Unlock()
}

type call struct {
	agent, name string
	config      string
	prompt      string // JSON prompt source
	vars        string
	hooks       []string
	schema      string
	execution   string
	phase       string
}

func (f *fixture) execute(c call) (*agentproto.ExecuteResult, error) {
	if c.execution == "" {
		c.execution = "top"
	}
	if c.name == "" {
		c.name = c.agent
	}
	f.mu.Lock()
	f.calls[c.agent]++
	n := f.calls[c.agent]
	f.mu.Unlock()
	p := agentproto.ExecuteParams{AgentID: c.agent, Name: c.name, Call: n, ExecutionID: c.execution,
		Workflow: agentproto.WorkflowRef{Name: "wf", Dir: f.dir}, Cwd: f.dir, Config: json.RawMessage(c.config),
		Hooks: c.hooks, Prompt: promptSource(f.t, c.prompt), Phase: c.phase}
	if c.vars != "" {
		_ = json.Unmarshal([]byte(c.vars), &p.TemplateVariables)
	}
	if c.schema != "" {
		p.OutputSchema = json.RawMessage(c.schema)
	}
	var res agentproto.ExecuteResult
	err := f.client.Call(context.Background(), agentproto.MethodAgentExecute, p, &res)
	return &res, err
}

func promptSource(t *testing.T, js string) agentproto.PromptSource {
	var p agentproto.PromptSource
	if err := json.Unmarshal([]byte(js), &p); err != nil {
		t.Fatal(err)
	}
	return p
}

func (f *fixture) text(c call) string {
	f.t.Helper()
	res, err := f.execute(c)
	if err != nil {
		f.t.Fatalf("execute %s: %v", c.prompt, err)
	}
	if res.Text == nil {
		f.t.Fatalf("execute %s: no text in %+v", c.prompt, res)
	}
	return *res.Text
}

// wantCode checks err is an agent error response with code.
func wantCode(t *testing.T, err error, code, contains string) {
	t.Helper()
	var re *jsonrpc.RemoteError
	if !errors.As(err, &re) {
		t.Fatalf("got %v, want a %s error", err, code)
	}
	if got := re.AgentError().Code; got != code || !strings.Contains(re.Message, contains) {
		t.Fatalf("got %s %q, want %s containing %q", got, re.Message, code, contains)
	}
}

// waitEvent returns the next event of type typ.
func (f *fixture) waitEvent(typ string) eventapi.Event {
	f.t.Helper()
	for e := range f.events {
		if e.Type == typ {
			return e
		}
	}
	f.t.Fatalf("no %s event", typ)
	return eventapi.Event{}
}

var defaults = agentproto.Settings{MaxConcurrent: 10, MaxOutstanding: 100}

const echoAgent = `  echo:
    harness: test
    model: test/echo
    test:
      repeat: true
      turns:
        - reply: "#{{turn}} {{prompt}}{{#each history}} | before: {{prompt}}{{/each}}"
`

func TestConversationContinues(t *testing.T) {
	f := start(t, echoAgent, defaults)
	if got := f.text(call{agent: "a1", config: `{"configId":"echo"}`, prompt: `"hello"`}); got != "#1 hello" {
		t.Fatalf("first reply %q", got)
	}
	if got := f.text(call{agent: "a1", config: `{"configId":"echo"}`, prompt: `"again"`}); got != "#2 again | before: hello" {
		t.Fatalf("second reply %q", got)
	}
	// Another object is another conversation.
	if got := f.text(call{agent: "a2", config: `{"configId":"echo"}`, prompt: `"other"`}); got != "#1 other" {
		t.Fatalf("other agent's reply %q", got)
	}
	f.closeIn()
	b, err := os.ReadFile(filepath.Join(f.runDir, EventsFileName))
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	for sc.Scan() {
		if err := eventapi.Check(sc.Bytes()); err != nil {
			t.Errorf("recorded %s: %v", sc.Bytes(), err)
		}
		var e eventapi.Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		if e.AgentID == "a1" {
			types = append(types, e.Type)
		}
		if d, ok := e.Details.(*eventapi.AgentInitializationCompleted); ok && d.Harness != "test" {
			t.Errorf("agent.initialization.completed names harness %q, want test: %s", d.Harness, sc.Bytes())
		}
		if e.Timestamp == "" || e.Sequence == 0 || e.ExecutionID != "top" || e.IDs.InvocationID == "" {
			t.Errorf("event lacks timestamp, sequence or ids: %s", sc.Text())
		}
	}
	want := "agent.invocation.started agent.initialization.started agent.initialization.completed model.started message.delta model.completed agent.invocation.completed " +
		"agent.invocation.started model.started message.delta model.completed agent.invocation.completed agent.closed"
	if strings.Join(types, " ") != want {
		t.Fatalf("events of a1:\n%s\nwant\n%s", strings.Join(types, " "), want)
	}
}

// Every event of an execute carries the phase the execute was started in,
// the model's turns included; an execute outside any phase carries none.
func TestEventsCarryTheirExecutesPhase(t *testing.T) {
	f := start(t, echoAgent, defaults)
	f.text(call{agent: "a1", config: `{"configId":"echo"}`, prompt: `"plan it"`, phase: "plan"})
	f.text(call{agent: "a1", config: `{"configId":"echo"}`, prompt: `"review it"`, phase: "review/fix"})
	f.text(call{agent: "a1", config: `{"configId":"echo"}`, prompt: `"no phase"`})
	f.closeIn()
	want := map[string]string{"a1/1": "plan", "a1/2": "review/fix", "a1/3": ""}
	seen := map[string]int{}
	for e := range f.events {
		if e.AgentID != "a1" || e.Type == eventapi.TypeAgentClosed {
			continue
		}
		seen[e.IDs.InvocationID]++
		if w, ok := want[e.IDs.InvocationID]; !ok || e.Phase != w {
			t.Errorf("%s of invocation %s carries phase %q, want %q", e.Type, e.IDs.InvocationID, e.Phase, w)
		}
		if e.Type == eventapi.TypeAgentInvocationCompleted && e.IDs.InvocationID == "a1/3" {
			break
		}
	}
	for inv := range want {
		if seen[inv] < 4 { // started, model started and completed, completed
			t.Errorf("invocation %s had %d events, want its model turn's too", inv, seen[inv])
		}
	}
}

func TestConcurrentUseRejectsOnlyTheOverlap(t *testing.T) {
	f := start(t, echoAgent, defaults)
	started, release := make(chan struct{}), make(chan struct{})
	f.onHook(agentproto.MethodHookOnStart, func(json.RawMessage) (any, error) {
		close(started)
		<-release
		return nil, nil
	})
	first := make(chan string, 1)
	go func() {
		first <- f.text(call{agent: "a1", name: "echo", config: `{"configId":"echo"}`, prompt: `"one"`, hooks: []string{"onStart"}})
	}()
	<-started
	_, err := f.execute(call{agent: "a1", name: "echo", config: `{"configId":"echo"}`, prompt: `"two"`})
	wantCode(t, err, agentproto.CodeConcurrentUse, `Concurrent execute calls cannot use the same agent object (agent "echo")`)
	close(release)
	if got := <-first; got != "#1 one" {
		t.Fatalf("first call: %q", got)
	}
	f.onHook(agentproto.MethodHookOnStart, func(json.RawMessage) (any, error) { return nil, nil })
	if got := f.text(call{agent: "a1", config: `{"configId":"echo"}`, prompt: `"three"`}); got != "#2 three | before: one" {
		t.Fatalf("after the conflict: %q", got)
	}
}

func TestCancelRejectsThePendingCallAndKeepsTheConversation(t *testing.T) {
	f := start(t, `  slow:
    harness: test
    test:
      turns:
        - delayMs: 600000
          reply: never
        - reply: "{{prompt}} after [{{#each history}}{{prompt}}{{/each}}]"
`, defaults)
	done := make(chan error, 1)
	go func() {
		_, err := f.execute(call{agent: "s", config: `{"configId":"slow"}`, prompt: `"wait"`})
		done <- err
	}()
	f.waitEvent("model.started")
	if err := f.client.Notify(agentproto.MethodAgentCancel, agentproto.CancelParams{AgentID: "s", Call: 1}); err != nil {
		t.Fatal(err)
	}
	wantCode(t, <-done, agentproto.CodeCancelled, `execute of agent "s" was cancelled`)
	if got := f.text(call{agent: "s", config: `{"configId":"slow"}`, prompt: `"next"`}); got != "next after []" {
		t.Fatalf("continuation: %q", got)
	}
}

func TestCancelMayOvertakeItsExecute(t *testing.T) {
	f := start(t, echoAgent, defaults)
	// The SDK numbers calls; a cancel of call 1 that arrives first cancels
	// call 1 when it comes, and does not touch call 2.
	if err := f.client.Notify(agentproto.MethodAgentCancel, agentproto.CancelParams{AgentID: "e", Call: 1}); err != nil {
		t.Fatal(err)
	}
	_, err := f.execute(call{agent: "e", config: `{"configId":"echo"}`, prompt: `"one"`})
	wantCode(t, err, agentproto.CodeCancelled, "was cancelled")
	if got := f.text(call{agent: "e", config: `{"configId":"echo"}`, prompt: `"two"`}); got != "#1 two" {
		t.Fatalf("call 2: %q", got)
	}
	// A cancel of a finished call is void.
	if err := f.client.Notify(agentproto.MethodAgentCancel, agentproto.CancelParams{AgentID: "e", Call: 2}); err != nil {
		t.Fatal(err)
	}
	if got := f.text(call{agent: "e", config: `{"configId":"echo"}`, prompt: `"three"`}); got != "#2 three | before: two" {
		t.Fatalf("call 3: %q", got)
	}
}

func TestInitializationFailureIsRetried(t *testing.T) {
	f := start(t, `  flaky:
    harness: test
    test:
      initialize:
        - fail: authentication
          message: no credentials
      turns:
        - reply: ok
`, defaults)
	_, err := f.execute(call{agent: "f", config: `{"configId":"flaky"}`, prompt: `"x"`})
	wantCode(t, err, agentproto.CodeAuthentication, "no credentials")
	if got := f.text(call{agent: "f", config: `{"configId":"flaky"}`, prompt: `"x"`}); got != "ok" {
		t.Fatalf("retry: %q", got)
	}
}

func TestExecutionFailureLeavesTheAgentUsable(t *testing.T) {
	f := start(t, `  fails:
    harness: test
    test:
      turns:
        - fail: model_unavailable
        - fail: execution
          message: boom
        - reply: "{{prompt}}"
`, defaults)
	_, err := f.execute(call{agent: "x", config: `{"configId":"fails"}`, prompt: `"1"`})
	wantCode(t, err, agentproto.CodeModelUnavailable, "scripted model_unavailable failure")
	_, err = f.execute(call{agent: "x", config: `{"configId":"fails"}`, prompt: `"2"`})
	wantCode(t, err, agentproto.CodeExecution, "boom")
	if got := f.text(call{agent: "x", config: `{"configId":"fails"}`, prompt: `"3"`}); got != "3" {
		t.Fatalf("after failures: %q", got)
	}
	_, err = f.execute(call{agent: "x", config: `{"configId":"fails"}`, prompt: `"4"`})
	wantCode(t, err, agentproto.CodeExecution, "the script has 3 turns and this is execute #4")
}

const toolAgent = `  tooler:
    harness: test
    test:
      turns:
        - toolCalls:
            - {tool: shell, input: {command: "rm -rf /"}, output: "gone"}
            - {tool: read, input: {path: a.txt}, output: "secret"}
            - {tool: grep, input: {pattern: x}, output: "match"}
            - {tool: web_fetch, error: "offline"}
          reply: "{{#each tools}}{{name}}={{status}}:{{output}}{{error}}{{#if modified}}(modified {{input.pattern}}){{/if}};{{/each}}"
`

func TestToolHooks(t *testing.T) {
	f := start(t, toolAgent, defaults)
	var afterSeen []string
	f.onHook(agentproto.MethodHookBeforeToolCall, func(raw json.RawMessage) (any, error) {
		var p agentproto.ToolCallParams
		_ = json.Unmarshal(raw, &p)
		switch p.ToolName {
		case "shell":
			return agentproto.BeforeToolCallResult{Action: "deny", Reason: "no shell"}, nil
		case "grep":
			return agentproto.BeforeToolCallResult{Action: "modify", Arguments: json.RawMessage(`{"pattern":"y"}`)}, nil
		}
		return nil, nil
	})
	f.onHook(agentproto.MethodHookAfterToolCall, func(raw json.RawMessage) (any, error) {
		var p agentproto.AfterToolCallParams
		_ = json.Unmarshal(raw, &p)
		entry := p.ToolName + ":" + string(p.Input) + ":" + string(p.Output)
		if p.Error != nil {
			entry += ":error " + p.Error.Message
		}
		afterSeen = append(afterSeen, entry)
		if p.ToolName == "read" {
			return agentproto.AfterToolCallResult{Action: "block", Reason: "redacted"}, nil
		}
		return nil, nil
	})
	got := f.text(call{agent: "t", config: `{"configId":"tooler"}`, prompt: `"go"`, hooks: []string{"beforeToolCall", "afterToolCall"}})
	want := "shell=denied:no shell;read=blocked:redacted;grep=completed:match(modified y);web_fetch=failed:offline;"
	if got != want {
		t.Fatalf("reply %q\nwant  %q", got, want)
	}
	wantAfter := `read:{"path":"a.txt"}:"secret" grep:{"pattern":"y"}:"match" web_fetch:{}::error offline`
	if strings.Join(afterSeen, " ") != wantAfter {
		t.Fatalf("afterToolCall saw %q, want %q", strings.Join(afterSeen, " "), wantAfter)
	}
}

func TestNoHooksMeansAllow(t *testing.T) {
	f := start(t, toolAgent, defaults)
	got := f.text(call{agent: "t", config: `{"configId":"tooler","disallowedTools":["read"]}`, prompt: `"go"`})
	want := "shell=completed:gone;read=removed:tool read is not available;grep=completed:match;web_fetch=failed:offline;"
	if got != want {
		t.Fatalf("reply %q\nwant  %q", got, want)
	}
}

func TestHookErrorFailsTheInvocation(t *testing.T) {
	f := start(t, toolAgent, defaults)
	f.onHook(agentproto.MethodHookBeforeToolCall, func(json.RawMessage) (any, error) {
		return nil, &jsonrpc.RemoteError{Code: agentproto.RPCAgentError, Message: "Error: policy exploded"}
	})
	_, err := f.execute(call{agent: "t", name: "tooler", config: `{"configId":"tooler"}`, prompt: `"go"`, hooks: []string{"beforeToolCall"}})
	wantCode(t, err, agentproto.CodeHookFailed, `beforeToolCall hook of agent "tooler" failed: Error: policy exploded`)
}

func TestStructuredOutput(t *testing.T) {
	f := start(t, `  judge:
    harness: test
    test:
      turns:
        - value: {approved: true, issues: []}
        - value: {approved: "yes", extra: 1}
`, defaults)
	schema := `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"approved":{"type":"boolean"},"issues":{"type":"array","items":{"type":"string"}}},"required":["approved","issues"],"additionalProperties":false}`
	res, err := f.execute(call{agent: "j", name: "judge", config: `{"configId":"judge"}`, prompt: `"judge"`, schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	if !jsonEq(res.Value, `{"approved":true,"issues":[]}`) || res.Text != nil {
		t.Fatalf("value %s text %v", res.Value, res.Text)
	}
	_, err = f.execute(call{agent: "j", name: "judge", config: `{"configId":"judge"}`, prompt: `"judge"`, schema: schema})
	wantCode(t, err, agentproto.CodeStructuredOutput,
		`agent "judge" returned output that does not match its outputSchema: field "approved": got string, want boolean; field "extra": unknown field (not in the schema); field "issues": required field is missing`)
	var re *jsonrpc.RemoteError
	errors.As(err, &re)
	issues, _ := json.Marshal(re.AgentError().Details["issues"])
	if want := `[{"message":"got string, want boolean","path":"approved"},{"message":"unknown field (not in the schema)","path":"extra"},{"message":"required field is missing","path":"issues"}]`; string(issues) != want {
		t.Errorf("details.issues = %s, want %s", issues, want)
	}
}

// TestOutputSchemaIsCheckedBeforeTheAgentRuns: an outputSchema that is not
// a valid JSON Schema is the caller's configuration error, found when the
// agent is prepared; the harness never gets the prompt (its script would
// have answered with a value), and no reply is blamed for it.
func TestOutputSchemaIsCheckedBeforeTheAgentRuns(t *testing.T) {
	f := start(t, `  judge:
    harness: test
    test:
      turns:
        - value: {approved: true}
`, defaults)
	for i, c := range []struct{ schema, contains string }{
		{`{"type":"object","properties":{"approved":{"type":"bool"}}}`, `field "properties.approved.type": value must be one of 'array', 'boolean'`},
		{`{"type":"object","properties":{"approved":{"minimum":"x"}}}`, `field "properties.approved.minimum": got string, want number`},
		{`{"$ref":"#/$defs/verdict"}`, `#/$defs/verdict" not found`},
	} {
		_, err := f.execute(call{agent: fmt.Sprintf("j%d", i), name: "judge", config: `{"configId":"judge"}`, prompt: `"judge"`, schema: c.schema})
		wantCode(t, err, agentproto.CodeConfiguration, `agent "judge": outputSchema: `)
		wantCode(t, err, agentproto.CodeConfiguration, c.contains)
	}
}

// TestStructuredOutputOfADraft07Schema: a draft-07 schema (definitions,
// $ref) checks the reply like a draft 2020-12 one, every failing field.
func TestStructuredOutputOfADraft07Schema(t *testing.T) {
	f := start(t, `  judge:
    harness: test
    test:
      turns:
        - value: {approved: "yes", score: "high"}
`, defaults)
	schema := `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"verdict":{"type":"boolean"}},"type":"object",` +
		`"properties":{"approved":{"$ref":"#/definitions/verdict"},"score":{"type":"number"}},"required":["approved","score"]}`
	_, err := f.execute(call{agent: "j", name: "judge", config: `{"configId":"judge"}`, prompt: `"judge"`, schema: schema})
	wantCode(t, err, agentproto.CodeStructuredOutput,
		`agent "judge" returned output that does not match its outputSchema: field "approved": got string, want boolean; field "score": got string, want number`)
}

func jsonEq(a json.RawMessage, b string) bool {
	var x, y any
	_ = json.Unmarshal(a, &x)
	_ = json.Unmarshal([]byte(b), &y)
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return string(xb) == string(yb)
}

func TestAdmissionLimits(t *testing.T) {
	f := start(t, echoAgent, agentproto.Settings{MaxConcurrent: 1, MaxOutstanding: 2})
	started, release := make(chan struct{}, 3), make(chan struct{})
	f.onHook(agentproto.MethodHookOnStart, func(json.RawMessage) (any, error) {
		started <- struct{}{}
		<-release
		return nil, nil
	})
	results := make(chan string, 2)
	go func() {
		results <- f.text(call{agent: "a", config: `{"configId":"echo"}`, prompt: `"A"`, hooks: []string{"onStart"}})
	}()
	<-started // a holds the only slot
	go func() {
		results <- f.text(call{agent: "b", config: `{"configId":"echo"}`, prompt: `"B"`, hooks: []string{"onStart"}})
	}()
	if e := f.waitEvent("agent.admission.queued"); e.AgentID != "b" {
		t.Fatalf("queued: %+v", e)
	}
	_, err := f.execute(call{agent: "c", config: `{"configId":"echo"}`, prompt: `"C"`})
	wantCode(t, err, agentproto.CodeAdmission, "agents.maxOutstanding is 2")
	close(release)
	// B was queued behind A (the event above); the order in which the two
	// goroutines hand over their results is the scheduler's, not the host's.
	got := []string{<-results, <-results}
	slices.Sort(got)
	if got[0] != "#1 A" || got[1] != "#1 B" {
		t.Fatalf("results %q, want #1 A and #1 B", got)
	}
	// Completed calls do not count.
	if got := f.text(call{agent: "c", config: `{"configId":"echo"}`, prompt: `"C"`}); got != "#1 C" {
		t.Fatalf("after the queue drained: %q", got)
	}
}

func TestTemplates(t *testing.T) {
	f := start(t, `  tpl:
    harness: test
    systemPrompt: {template: sys.hbs}
    prompt: {template: user.hbs}
    templateVariables:
      systemPrompt: {language: Go, focus: correctness}
      prompt: {who: yaml}
    test:
      repeat: true
      turns:
        - reply: "[{{systemPrompt}}] {{prompt}}"
`, defaults)
	write(t, filepath.Join(f.dir, "sys.hbs"), "Review {{language}} for {{focus}}.")
	write(t, filepath.Join(f.dir, "user.hbs"), "Hello {{who}}, {{what}}")
	write(t, filepath.Join(f.dir, "plain.md"), "Plain {{not}} a template")
	cfg := `{"configId":"tpl","templateVariables":{"systemPrompt":{"focus":"speed"}}}`
	// A missing variable fails before the harness: the script's turn is not used.
	_, err := f.execute(call{agent: "p", config: cfg, prompt: `{"configId":"tpl"}`})
	wantCode(t, err, agentproto.CodeTemplateVariableMissing, `uses the variable "what"`)
	got := f.text(call{agent: "p", config: cfg, prompt: `{"configId":"tpl"}`, vars: `{"what":"hi","who":"call"}`})
	if got != "[Review Go for speed.] Hello call, hi" {
		t.Fatalf("configId prompt: %q", got)
	}
	if got := f.text(call{agent: "p", config: cfg, prompt: `{"file":"plain.md"}`}); got != "[Review Go for speed.] Plain {{not}} a template" {
		t.Fatalf("file prompt: %q", got)
	}
	if got := f.text(call{agent: "p", config: cfg, prompt: `{"template":"user.hbs"}`, vars: `{"what":"x"}`}); got != "[Review Go for speed.] Hello yaml, x" {
		t.Fatalf("template prompt with the agent's defaults: %q", got)
	}
	// The system prompt was rendered once: changing the file changes nothing.
	write(t, filepath.Join(f.dir, "sys.hbs"), "Changed.")
	if got := f.text(call{agent: "p", config: cfg, prompt: `"literal {{x}}"`}); got != "[Review Go for speed.] literal {{x}}" {
		t.Fatalf("literal prompt: %q", got)
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestConfigurationErrorsAreCatchableAndRetryable(t *testing.T) {
	f := start(t, echoAgent, defaults)
	cases := []struct{ config, code, contains string }{
		{`{"configId":"nope"}`, agentproto.CodeConfiguration, `unknown configId "nope"`},
		{`{"harness":"test","allowedMcps":["jira"]}`, agentproto.CodeConfiguration, `unknown MCP server "jira"`},
		{`{"harness":"test","allowedTools":["Bash"]}`, agentproto.CodeConfiguration, `unknown built-in tool name "Bash"`},
		{`{"configId":"echo","effort":"extreme"}`, agentproto.CodeConfiguration, `effort "extreme" is not supported by harness test`},
		{`{"model":"x/y"}`, agentproto.CodeModelUnavailable, `no harness can serve models x/y`},
		{`{"configId":"echo","harness":null}`, agentproto.CodeConfiguration, ``},
		{`{"configId":"echo","workingDirectory":"missing/dir"}`, agentproto.CodeConfiguration, `workingDirectory`},
		{`{"harness":"test"}`, agentproto.CodeConfiguration, `needs a script`},
	}
	for i, c := range cases {
		_, err := f.execute(call{agent: "bad" + string(rune('a'+i)), config: c.config, prompt: `"x"`})
		wantCode(t, err, c.code, c.contains)
	}
}

func TestWorkingDirectory(t *testing.T) {
	f := start(t, `  wd:
    harness: test
    workingDirectory: sub
    test:
      turns:
        - reply: "{{workingDirectory}}"
`, defaults)
	if err := os.Mkdir(filepath.Join(f.dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := f.text(call{agent: "w", config: `{"configId":"wd"}`, prompt: `"x"`}); got != filepath.Join(f.dir, "sub") {
		t.Fatalf("workingDirectory %q", got)
	}
}

func TestClosedExecutionRejectsExecutes(t *testing.T) {
	f := start(t, echoAgent, defaults)
	f.text(call{agent: "a", config: `{"configId":"echo"}`, prompt: `"x"`, execution: "child-1"})
	var res agentproto.CloseResult
	if err := f.client.Call(context.Background(), agentproto.MethodExecutionClose, agentproto.ExecutionRef{ExecutionID: "child-1"}, &res); err != nil {
		t.Fatal(err)
	}
	if res.Closed != 1 {
		t.Fatalf("closed %d sessions, want 1", res.Closed)
	}
	_, err := f.execute(call{agent: "a", config: `{"configId":"echo"}`, prompt: `"x"`, execution: "child-1"})
	wantCode(t, err, agentproto.CodeContextClosed, "its workflow execution has ended")
	// Other executions are unaffected.
	f.text(call{agent: "b", config: `{"configId":"echo"}`, prompt: `"x"`})
}

func TestCloseCancelsARunningCall(t *testing.T) {
	f := start(t, `  slow:
    harness: test
    test:
      turns:
        - delayMs: 600000
`, defaults)
	done := make(chan error, 1)
	go func() {
		_, err := f.execute(call{agent: "s", config: `{"configId":"slow"}`, prompt: `"wait"`})
		done <- err
	}()
	f.waitEvent("model.started")
	if err := f.client.Call(context.Background(), agentproto.MethodAgentClose, agentproto.AgentRef{AgentID: "s"}, nil); err != nil {
		t.Fatal(err)
	}
	wantCode(t, <-done, agentproto.CodeCancelled, "the owning workflow execution ended")
}

// An agent-start event previews a prompt given as text by its first line,
// never the whole prompt.
func TestAgentStartPreviewsATextPromptsFirstLine(t *testing.T) {
	f := start(t, echoAgent, defaults)
	f.text(call{agent: "a1", config: `{"configId":"echo"}`, prompt: `"Review src/a.go\nthe rest, which no event keeps"`})
	e := f.waitEvent(eventapi.TypeAgentInvocationStarted)
	if d := e.Details.(*eventapi.AgentInvocationStarted); d.PromptPreview != "Review src/a.go" {
		t.Errorf("agent.invocation.started has promptPreview %q, want the prompt's first line", d.PromptPreview)
	}
}
