package qwen

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/stratoscli/stratos/stratos-agent/adapter/rejection"
	"github.com/stratoscli/stratos/stratos-agent/adapters/acp"
)

// The author's beforeToolCall and afterToolCall run through Qwen Code's
// own command hooks (PreToolUse, PostToolUse, PostToolUseFailure in the
// session's settings.json): in ACP mode Qwen Code runs them around every
// call it executes, in the yolo approval mode too, where it asks
// session/request_permission for none (docs/harness-qwen.md, "Hooks").

//go:embed relay.cjs
var relaySource []byte

// hookTimeoutMillis bounds one hook run as Qwen Code sees it. Author hooks
// may be slow; a timed-out command hook lets the call run, so the bound is
// long (an hour; the execute's own deadline ends the turn first). Qwen
// Code reads a command hook timeout of 1000 or more as milliseconds.
const hookTimeoutMillis = 3_600_000

// nativeHooks reads Qwen Code's hook input and writes its output.
var nativeHooks = &acp.NativeHooks{Relay: relaySource, Read: readHook, Answer: answerHook, Echo: echoDenial}

// hookInput is the part of Qwen Code's hook input Stratos reads.
type hookInput struct {
	Event        string          `json:"hook_event_name"`
	ToolName     string          `json:"tool_name"`
	ToolInput    json.RawMessage `json:"tool_input"`
	ToolCallID   string          `json:"tool_call_id"`
	ToolUseID    string          `json:"tool_use_id"`
	ToolResponse struct {
		LLMContent json.RawMessage `json:"llmContent"`
	} `json:"tool_response"`
	Error string `json:"error"`
}

var hookEvents = map[string]acp.HookEvent{
	"PreToolUse": acp.HookBefore, "PostToolUse": acp.HookAfter, "PostToolUseFailure": acp.HookAfterFailure,
}

func readHook(body []byte) (acp.HookCall, error) {
	var in hookInput
	if err := json.Unmarshal(body, &in); err != nil {
		return acp.HookCall{}, err
	}
	ev, ok := hookEvents[in.Event]
	if !ok {
		return acp.HookCall{}, fmt.Errorf("hook event %q is not a tool hook", in.Event)
	}
	// tool_call_id is the model's call ID, which Qwen Code's ACP tool_call
	// updates carry too.
	id := in.ToolCallID
	if id == "" {
		id = in.ToolUseID
	}
	return acp.HookCall{Event: ev, ToolCallID: id, Name: in.ToolName, Input: in.ToolInput, Output: in.ToolResponse.LLMContent, Error: in.Error}, nil
}

// preToolUseOutput is PreToolUse's answer: permissionDecision deny keeps
// the call from running and the model reads the reason as its error.
type preToolUseOutput struct {
	HookSpecificOutput preToolUseDecision `json:"hookSpecificOutput"`
}

type preToolUseDecision struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason"`
}

// postToolUseOutput is PostToolUse's answer: continue false replaces the
// result the model reads with stopReason (a decision of block would only
// be logged), and the turn goes on.
type postToolUseOutput struct {
	Continue   bool   `json:"continue"`
	StopReason string `json:"stopReason,omitempty"`
}

func answerHook(c acp.HookCall, d acp.HookDecision) []byte {
	var v any
	switch {
	case c.Event == acp.HookBefore && d.Block:
		v = preToolUseOutput{preToolUseDecision{HookEventName: "PreToolUse", PermissionDecision: "deny", PermissionDecisionReason: d.Reason}}
	case c.Event == acp.HookBefore:
		v = preToolUseOutput{preToolUseDecision{HookEventName: "PreToolUse", PermissionDecision: "allow", PermissionDecisionReason: "allowed by the agent's beforeToolCall"}}
	default:
		v = postToolUseOutput{Continue: !d.Block, StopReason: d.Reason}
	}
	b, _ := json.Marshal(v)
	return b
}

// echoDenial is the message Qwen Code adds to its reply when a PreToolUse
// hook denies a call.
func echoDenial(c acp.HookCall, reason string) string {
	return "\u2717 **PreToolUse blocked**: " + c.Name + " - " + reason
}

// hookSettings are the session's tool hooks: every call's, through the
// relay.
type hookSettings struct {
	PreToolUse         []hookMatcher `json:"PreToolUse"`
	PostToolUse        []hookMatcher `json:"PostToolUse"`
	PostToolUseFailure []hookMatcher `json:"PostToolUseFailure"`
}

type hookMatcher struct {
	Matcher string        `json:"matcher"`
	Hooks   []hookCommand `json:"hooks"`
}

type hookCommand struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout"`
}

// newHookSettings runs the relay in dir with node for every tool hook.
func newHookSettings(node, dir string) *hookSettings {
	m := []hookMatcher{{Matcher: ".*", Hooks: []hookCommand{{Type: "command",
		Command: shellQuote(node) + " " + shellQuote(acp.RelayPath(dir)), Timeout: hookTimeoutMillis}}}}
	return &hookSettings{PreToolUse: m, PostToolUse: m, PostToolUseFailure: m}
}

// shellQuote quotes s for the shell Qwen Code runs a command hook in.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// findNode is the node the CLI runs on: its script's interpreter, or
// node on the session's PATH when the script names it through env.
func findNode(env []string, bin string) (string, error) {
	if real, err := filepath.EvalSymlinks(bin); err == nil {
		bin = real
	}
	if f, err := os.Open(bin); err == nil {
		line, _ := bufio.NewReader(f).ReadString('\n')
		_ = f.Close()
		if fields := strings.Fields(strings.TrimPrefix(line, "#!")); strings.HasPrefix(line, "#!") && len(fields) > 0 {
			if filepath.Base(fields[0]) != "env" && strings.Contains(filepath.Base(fields[0]), "node") {
				return fields[0], nil
			}
		}
	}
	for _, dir := range filepath.SplitList(acp.Getenv(env, "PATH")) {
		p := filepath.Join(dir, "node")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", rejection.New(rejection.HarnessUnavailable, "harness %s runs the agent's tool hooks with node, and no node is on PATH", Harness).
		WithDetails(map[string]any{"harness": Harness})
}
