package claudecode

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// launch is everything one CLI process is started with.
type launch struct {
	bin       string
	dir       string
	sessionID string
	// resume continues sessionID's conversation (a restarted process)
	// instead of starting it.
	resume bool
	// model is the native model ID for the effective backend; empty leaves
	// the CLI's default.
	model         string
	effort        string
	disallowed    []string
	jsonSchema    json.RawMessage
	mcpConfigFile string
	env           []string
}

// argv is the command line of docs/design/claude-code-cli.md.
// Values use the --flag=value form so a value starting with "-" can never be
// read as another flag. The system prompt and hooks travel in the initialize
// request instead (no argv length limit, nothing visible in ps).
func (l launch) argv() []string {
	args := []string{
		"--output-format=stream-json", "--verbose", "--input-format=stream-json",
		"--include-partial-messages",
		"--setting-sources=", // no user/project/local settings, no CLAUDE.md
		"--strict-mcp-config",
		"--permission-mode=default",
		"--permission-prompt-tool=stdio", // "ask" decisions become can_use_tool requests
	}
	if l.resume {
		args = append(args, "--resume="+l.sessionID)
	} else {
		args = append(args, "--session-id="+l.sessionID)
	}
	if l.mcpConfigFile != "" {
		args = append(args, "--mcp-config="+l.mcpConfigFile)
	}
	if l.model != "" {
		args = append(args, "--model="+l.model)
	}
	if l.effort != "" {
		args = append(args, "--effort="+l.effort)
	}
	if len(l.disallowed) > 0 {
		args = append(args, "--disallowedTools="+strings.Join(l.disallowed, ","))
	}
	if len(l.jsonSchema) > 0 {
		args = append(args, "--json-schema="+string(l.jsonSchema))
	}
	return args
}

// Variables the adapter always sets (docs/design/claude-code-cli.md): no calls to
// side services, no cross-session auto-memory, session state frames, and MCP
// servers connected before the first turn: by default the CLI sends its first
// request while servers are still connecting, so an agent's first turn could
// go out without the MCP tools its workflow gave it.
var fixedEnv = map[string]string{
	"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
	"MCP_CONNECTION_NONBLOCKING":               "0",
	"CLAUDE_CODE_DISABLE_AUTO_MEMORY":          "1",
	"CLAUDE_CODE_SDK_READS_SESSION_STATE":      "1",
	"BUN_ENABLE_CRASH_REPORTING":               "0",
}

// droppedEnv are inherited variables the child must not see: CLAUDECODE
// makes a CLI started from inside Claude Code think it is nested; the TS SDK
// removes NODE_OPTIONS and DEBUG for the same reason (they change the CLI's
// runtime behaviour).
var droppedEnv = map[string]bool{"CLAUDECODE": true, "NODE_OPTIONS": true, "DEBUG": true}

// childEnv builds the CLI's environment from the inherited one. Credentials
// (ANTHROPIC_API_KEY, a native login's files) and endpoints
// (ANTHROPIC_BASE_URL) pass through untouched: the adapter never reads or
// copies them. backendKeys are every backend flag the provider mapping
// knows; when the agent names its provider they are cleared and backend
// (the selected provider's flags) is set, so an ambient
// CLAUDE_CODE_USE_BEDROCK cannot redirect an Anthropic-API agent.
func childEnv(inherited []string, backendKeys []string, backend map[string]string, explicit bool) []string {
	clear := map[string]bool{}
	if explicit {
		for _, k := range backendKeys {
			clear[k] = true
		}
	}
	set := map[string]string{}
	for k, v := range fixedEnv {
		set[k] = v
	}
	for k, v := range backend {
		set[k] = v
	}
	out := make([]string, 0, len(inherited)+len(set))
	for _, kv := range inherited {
		k, _, _ := strings.Cut(kv, "=")
		if droppedEnv[k] || clear[k] {
			continue
		}
		if _, overridden := set[k]; overridden {
			continue
		}
		out = append(out, kv)
	}
	keys := slices.Sorted(maps.Keys(set))
	for _, k := range keys {
		out = append(out, k+"="+set[k])
	}
	return out
}

// envOn reports whether a backend flag is switched on in env (the CLI treats
// "1"/"true" as on; empty, "0" and "false" as off).
func envOn(env []string, key string) bool {
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if k == key {
			v = strings.ToLower(strings.TrimSpace(v))
			return v != "" && v != "0" && v != "false" && v != "no"
		}
	}
	return false
}

// nativeSchema prepares an output schema for --json-schema: the CLI's
// validator knows only its default draft and refuses a "$schema" naming
// another (Zod 4 writes draft 2020-12), so the top-level "$schema" is
// dropped. Everything else is passed as the author's schema says.
func nativeSchema(raw json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil {
		return raw
	}
	if _, ok := m["$schema"]; !ok {
		return raw
	}
	delete(m, "$schema")
	b, err := json.Marshal(m)
	if err != nil {
		return raw
	}
	return b
}
