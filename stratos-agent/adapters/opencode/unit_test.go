package opencode

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/stratos-agent/adapter"
	"github.com/stratoscli/stratos/stratos-agent/adapter/mcpconfig"
	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
	"github.com/stratoscli/stratos/stratos-agent/tools"
)

func TestConfigWritesPermissionsInEvaluationOrder(t *testing.T) {
	cfg := serverConfig{model: model{"openai", "gpt-4.1"}, prompt: "SYS", denied: []string{"bash", "edit"},
		mcp:    []mcpconfig.Server{{Name: "calc", Command: "python3", Args: []string{"calc.py"}}, {Name: "docs", URL: "http://127.0.0.1:9/mcp"}},
		plugin: &pluginRef{File: "/x/hooks.js", URL: "http://127.0.0.1:1", Token: "t"}}
	doc, err := cfg.render()
	if err != nil {
		t.Fatal(err)
	}
	perm := string(doc[strings.Index(string(doc), `"permission":`):])
	want := `"permission":{"*":"allow","external_directory":"allow","doom_loop":"allow","bash":"deny","edit":"deny"}}`
	if perm != want {
		t.Fatalf("permission object %s, want %s (OpenCode's last matching rule wins, so * must come first)", perm, want)
	}
	var m map[string]any
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, doc)
	}
	if m["default_agent"] != agentName || m["model"] != "openai/gpt-4.1" || m["small_model"] != "openai/gpt-4.1" {
		t.Errorf("agent/model keys: %v %v %v", m["default_agent"], m["model"], m["small_model"])
	}
	if got := m["agent"].(map[string]any)[agentName].(map[string]any)["prompt"]; got != "SYS" {
		t.Errorf("agent prompt %v", got)
	}
	if got := m["enabled_providers"]; !reflect.DeepEqual(got, []any{"openai"}) {
		t.Errorf("enabled_providers %v: only the session's provider", got)
	}
	mcp := m["mcp"].(map[string]any)
	calc := []any{"/bin/sh", "-c", `unset OPENCODE_SERVER_PASSWORD OPENCODE_CONFIG_CONTENT; exec "$0" "$@"`, "python3", "calc.py"}
	if !reflect.DeepEqual(mcp["calc"], map[string]any{"type": "local", "command": calc, "enabled": true}) ||
		mcp["docs"].(map[string]any)["oauth"] != false {
		t.Errorf("mcp %v", mcp)
	}
	plugin := m["plugin"].([]any)[0].([]any)
	if plugin[0] != "file:///x/hooks.js" || plugin[1].(map[string]any)["token"] != "t" {
		t.Errorf("plugin %v", plugin)
	}
}

// Without tool hooks the plugin still announces tool calls to the hook
// server (and keeps the server's secrets from the agent's commands) but
// does not ask about their results.
func TestConfigWithoutToolHooksAsksNothingAboutResults(t *testing.T) {
	cfg := serverConfig{model: model{"openai", "gpt-4.1"}, plugin: &pluginRef{File: "/x/hooks.js", URL: "http://127.0.0.1:1", Token: "tok"}}
	doc, err := cfg.render()
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Plugin [][]any `json:"plugin"`
	}
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatal(err)
	}
	want := [][]any{{"file:///x/hooks.js", map[string]any{"url": "http://127.0.0.1:1", "token": "tok",
		"secrets": []any{"OPENCODE_SERVER_PASSWORD", "OPENCODE_CONFIG_CONTENT"}}}}
	if !reflect.DeepEqual(m.Plugin, want) {
		t.Fatalf("plugin %v, want %v", m.Plugin, want)
	}
	cfg.plugin.After = true
	if doc, err = cfg.render(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), `"after":true`) {
		t.Fatalf("with tool hooks the plugin is not asked about results: %s", doc)
	}
}

// A local MCP server's command line removes the server's secrets from the
// environment OpenCode gives it, keeps a secret's name the declaration
// sets itself, and hands the server its arguments unchanged.
func TestLocalMCPCommandRunsWithoutTheServersSecrets(t *testing.T) {
	s := mcpconfig.Server{Name: "env", Command: "sh",
		Args: []string{"-c", `printf '%s|' "$0" "$@"; echo; env`, "a=b", "c d", "$HOME"},
		Env:  map[string]string{envConfigContent: "declared"}}
	argv := localCommand(s)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), envPassword + "=pw-3c1f", envConfigContent + "=declared"}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%q: %v", argv, err)
	}
	lines := strings.Split(string(out), "\n")
	if lines[0] != "a=b|c d|$HOME|" {
		t.Errorf("arguments %q, want them unchanged", lines[0])
	}
	env := lines[1:]
	if slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, envPassword+"=") }) {
		t.Errorf("the MCP server sees the server's password: %q", env)
	}
	if !slices.Contains(env, envConfigContent+"=declared") {
		t.Errorf("the declared %s is gone: %q", envConfigContent, env)
	}
}

func TestSessionRulesDenyEveryPatternOfARemovedTool(t *testing.T) {
	got := sessionRules([]string{"bash"})
	if !reflect.DeepEqual(got, []map[string]string{{"permission": "bash", "pattern": "*", "action": "deny"}}) {
		t.Fatalf("rules %v", got)
	}
}

func TestEditAndWriteAreRemovedTogether(t *testing.T) {
	f := NewFactory(Options{Environ: func() []string { return nil }})
	_, err := f(adapter.Spec{Name: "a", Tools: tools.Selection{DisallowedTools: []string{"edit"}}}, func(adapter.Event) {}, nil)
	if agentproto.CodeOf(err) != agentproto.CodeConfiguration || !strings.Contains(err.Error(), "edit") || !strings.Contains(err.Error(), "write") {
		t.Fatalf("error %v, want a configuration error naming edit and write", err)
	}
	a, err := f(adapter.Spec{Name: "a", Tools: tools.Selection{DisallowedTools: []string{"edit", "write", "shell"}}}, func(adapter.Event) {}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := a.(*session).denied; !reflect.DeepEqual(got, []string{"bash", "edit"}) {
		t.Errorf("denied permissions %v", got)
	}
}

func TestBaseURLVariablesReachTheProviderOptions(t *testing.T) {
	env := []string{"OPENAI_BASE_URL=http://127.0.0.1:1/v1/", "ANTHROPIC_BASE_URL=http://127.0.0.1:2"}
	baseURL := func(tab map[string]any) any { return tab["options"].(map[string]any)["baseURL"] }
	if got := baseURL(providerTable(env, model{"openai", "gpt-4.1"})); got != "http://127.0.0.1:1/v1" {
		t.Errorf("openai baseURL %v", got)
	}
	if got := baseURL(providerTable(env, model{"anthropic", "claude"})); got != "http://127.0.0.1:2/v1" {
		t.Errorf("anthropic baseURL %v (the AI SDK's base URL includes /v1)", got)
	}
	if providerTable(nil, model{"openai", "gpt-4.1"}) != nil || providerTable(env, model{"google", "gemini"}) != nil {
		t.Errorf("a provider without a base URL variable got a table")
	}
}

func TestAuthenticationIsDetectedWithoutReadingCredentials(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "opencode", "auth.json")
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(`{"anthropic":{"type":"api","key":"sk-secret"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"XDG_DATA_HOME=" + dir}
	if c, err := checkAuth(env, "anthropic"); err != nil || c.StoredFile != file {
		t.Errorf("stored credential: %+v %v", c, err)
	}
	if c, err := checkAuth(append(env, "OPENAI_API_KEY=k"), "openai"); err != nil || c.StoredFile != "" {
		t.Errorf("key in the environment: %+v %v", c, err)
	}
	if _, err := checkAuth(env, "ollama"); err != nil {
		t.Errorf("the local Ollama provider needs no credential: %v", err)
	}
	_, err := checkAuth(env, "openai")
	if r, ok := rejection.As(err); !ok || r.Reason != rejection.Authentication || !strings.Contains(err.Error(), "opencode") ||
		!strings.Contains(err.Error(), "OPENAI_API_KEY") {
		t.Errorf("no credential: %v", err)
	}
	if strings.Contains(err.Error(), "sk-secret") {
		t.Errorf("the error quotes a credential")
	}
	if _, err := checkAuth([]string{`OPENCODE_AUTH_CONTENT={"openai":{"type":"api","key":"x"}}`}, "openai"); err != nil {
		t.Errorf("OPENCODE_AUTH_CONTENT: %v", err)
	}
}

func TestErrorsAreClassified(t *testing.T) {
	mk := func(name, msg string, status int) *apiError {
		e := &apiError{Name: name}
		e.Data.Message, e.Data.StatusCode = msg, status
		return e
	}
	cases := []struct {
		err  *apiError
		work bool
		code string
		next bool
	}{
		{mk("MessageAbortedError", "Aborted", 0), false, agentproto.CodeCancelled, false},
		{mk("StructuredOutputError", "Model did not produce structured output", 0), false, agentproto.CodeStructuredOutput, false},
		{mk("UnknownError", "Model not found: openai/nope.", 0), false, agentproto.CodeModelUnavailable, true},
		{mk("APIError", "not found", 404), false, agentproto.CodeModelUnavailable, true},
		{mk("APIError", "not found", 404), true, agentproto.CodeModelUnavailable, false},
		{mk("APIError", "bad key", 401), false, agentproto.CodeAuthentication, true},
		{mk("APIError", "overloaded", 529), false, agentproto.CodeExecution, false},
	}
	for _, c := range cases {
		err := classify(c.err, "a", c.work)
		if agentproto.CodeOf(err) != c.code || rejection.TryNext(err) != c.next {
			t.Errorf("%s %d (work %v): %v (code %s, try next %v), want %s, %v", c.err.Name, c.err.Data.StatusCode, c.work, err,
				agentproto.CodeOf(err), rejection.TryNext(err), c.code, c.next)
		}
	}
}

func TestMessageIDsSortInCreationOrder(t *testing.T) {
	s := &session{}
	prev := s.nextMessageID()
	for i := 0; i < 100; i++ {
		id := s.nextMessageID()
		if len(id) != len("msg_")+12+14 || id <= prev {
			t.Fatalf("id %q after %q", id, prev)
		}
		prev = id
	}
}

// Status events of the previous turn can still be in the stream when the
// next prompt is sent: they must not end the new turn.
func TestAStaleIdleDoesNotEndTheNextTurn(t *testing.T) {
	tr := newTurn(t.Context(), "msg_new")
	feed := func(typ, raw string) {
		var p props
		if err := json.Unmarshal([]byte(raw), &p); err != nil {
			t.Fatal(err)
		}
		tr.observe(event{Type: typ}, &p)
	}
	feed("session.status", `{"sessionID":"s","status":{"type":"busy"}}`)
	feed("session.status", `{"sessionID":"s","status":{"type":"idle"}}`)
	feed("session.idle", `{"sessionID":"s"}`)
	select {
	case <-tr.done:
		t.Fatal("the previous turn's idle ended the new turn")
	default:
	}
	feed("message.updated", `{"sessionID":"s","info":{"id":"msg_new","role":"user"}}`)
	feed("session.status", `{"sessionID":"s","status":{"type":"busy"}}`)
	feed("message.updated", `{"sessionID":"s","info":{"id":"msg_a","role":"assistant","parentID":"msg_new"}}`)
	feed("message.part.updated", `{"sessionID":"s","part":{"id":"prt_1","messageID":"msg_a","type":"text","text":"answer"}}`)
	feed("session.status", `{"sessionID":"s","status":{"type":"idle"}}`)
	select {
	case <-tr.done:
	default:
		t.Fatal("the turn did not end at its idle")
	}
	if res, err := tr.outcome(false, "a"); err != nil || res.Text != "answer" {
		t.Fatalf("outcome %+v, %v", res, err)
	}
}

// A turn's usage is reported when the turn ends (before its execute
// returns), never at an idle the stream delivers: with the synchronous
// route the previous turn's idle can arrive while the next turn runs, and
// its usage would be split or recorded under the wrong invocation.
func TestUsageIsReportedAtTheTurnsEndNotAtAnIdle(t *testing.T) {
	var usages []adapter.Event
	o := newObserver(func(e adapter.Event) {
		if e.Type() == eventapi.TypeUsage {
			usages = append(usages, e)
		}
	})
	feed(t, o, "message.updated", `{"info":{"id":"m1","sessionID":"s","role":"assistant","providerID":"openai","modelID":"gpt-5"}}`)
	feed(t, o, "message.part.updated", `{"part":{"id":"p1","sessionID":"s","messageID":"m1","type":"step-finish","tokens":{"input":3,"output":1}}}`)
	feed(t, o, "session.status", `{"sessionID":"s","status":{"type":"idle"}}`)
	if len(usages) != 0 {
		t.Fatalf("usage reported at an idle: %+v", usages)
	}
	o.endTurn()
	o.endTurn() // a turn without steps reports nothing
	if len(usages) != 1 || usages[0].Details.(*eventapi.Usage).InputTokens != 3 || usages[0].Details.(*eventapi.Usage).OutputTokens != 1 {
		t.Fatalf("usage events %+v, want one with the turn's tokens", usages)
	}
}

// The global stream wraps each event in a frame with its directory and
// repeats session changes as internal "sync" frames, which are skipped.
func TestGlobalFramesUnwrapToEvents(t *testing.T) {
	r := bufio.NewReader(strings.NewReader(`data: {"payload":{"id":"evt_1","type":"server.connected","properties":{}}}

data: {"directory":"/w","payload":{"type":"sync","syncEvent":{"type":"message.updated.1"}}}

data: {"directory":"/w","payload":{"id":"evt_2","type":"message.updated","properties":{"sessionID":"s"}}}

`))
	var types []string
	for {
		ev, err := nextEvent(r)
		if err != nil {
			break
		}
		types = append(types, ev.Type)
		if ev.Type == "message.updated" && string(ev.Properties) != `{"sessionID":"s"}` {
			t.Errorf("properties = %s", ev.Properties)
		}
	}
	if !reflect.DeepEqual(types, []string{"server.connected", "message.updated"}) {
		t.Fatalf("events = %v", types)
	}
}

func TestTurnUsageNamesTheProviderAndModelOfTheReply(t *testing.T) {
	var got []adapter.Event
	o := newObserver(func(e adapter.Event) { got = append(got, e) })
	feed(t, o, "message.updated", `{"info":{"id":"m1","sessionID":"s","role":"assistant","providerID":"anthropic","modelID":"claude-sonnet-4-5"}}`)
	feed(t, o, "message.part.updated", `{"part":{"id":"p1","sessionID":"s","messageID":"m1","type":"step-finish","tokens":{"input":100,"output":20,"reasoning":0,"cache":{"read":0,"write":0}}}}`)
	o.endTurn()
	u, ok := got[len(got)-1].Details.(*eventapi.Usage)
	if !ok || u.Provider != "anthropic" || u.Model != "claude-sonnet-4-5" {
		t.Errorf("usage %+v; want OpenCode's provider and model of the reply", u)
	}
}

// feed hands the observer one event of the stream.
func feed(t *testing.T, o *observer, typ, raw string) {
	t.Helper()
	var p props
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		t.Fatal(err)
	}
	o.observe(event{Type: typ}, &p)
}
