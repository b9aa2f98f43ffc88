package fakemodel

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// These tests drive a real Claude Code CLI against the fake. They install
// nothing: set STRATOS_TEST_CLAUDE to a claude binary (e.g. the one
// scripts/test installs from the pinned @anthropic-ai/claude-code).

func claudeBinary(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("STRATOS_TEST_CLAUDE")
	if bin == "" {
		t.Skip("STRATOS_TEST_CLAUDE is not set: no real claude CLI to run against the fake " +
			"(point it at node_modules/.bin/claude of @anthropic-ai/claude-code)")
	}
	if _, err := exec.LookPath(bin); err != nil {
		t.Fatalf("STRATOS_TEST_CLAUDE=%s: %v", bin, err)
	}
	return bin
}

// runClaude runs one print-mode claude invocation against srv, isolated
// from the user's configuration, and returns its stdout. The CLI must exit
// with wantExit (1 when the last result is an error).
func runClaude(t *testing.T, bin string, srv *Server, wantExit int, args ...string) []byte {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{"home", "cfg", "work"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	base := []string{"--setting-sources=", "--strict-mcp-config", "--system-prompt=Stratos fake-model test"}
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	cmd.Dir = filepath.Join(dir, "work")
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "CLAUDECODE" || strings.HasPrefix(k, "ANTHROPIC_") || strings.HasPrefix(k, "CLAUDE_CODE_") {
			continue
		}
		env = append(env, kv)
	}
	cmd.Env = append(env, "HOME="+filepath.Join(dir, "home"), "CLAUDE_CONFIG_DIR="+filepath.Join(dir, "cfg"),
		"ANTHROPIC_BASE_URL="+srv.URL, "ANTHROPIC_API_KEY=sk-ant-fake-000",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "CLAUDE_CODE_MAX_RETRIES=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exitErr *exec.ExitError
	code := 0
	if errors.As(err, &exitErr) {
		code = exitErr.ExitCode()
	} else if err != nil {
		t.Fatalf("claude %v: %v", args, err)
	}
	if code != wantExit {
		t.Fatalf("claude %v: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", args, code, wantExit, out, stderr.String())
	}
	return out
}

func TestRealClaudeRunsAToolTurnAgainstTheFake(t *testing.T) {
	bin := claudeBinary(t)
	srv := startFake(t, `{"turns":[
	  {"match":{"marker":"[bash]"},"reply":[{"thinking":"I should run it."},{"text":"Running it now."},
	    {"toolUse":{"name":"Bash","input":{"command":"echo hi-from-bash","description":"Print"}}}]},
	  {"match":{"marker":"[bash]"},"reply":[{"text":"FINAL: done"}]}
	]}`, Options{})
	out := runClaude(t, bin, srv, 0, "-p", "[bash] say hi", "--model=claude-fake-1", "--tools=Bash,Read",
		"--output-format=stream-json", "--verbose", "--include-partial-messages")
	var result map[string]any
	var deltas strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var frame map[string]any
		if json.Unmarshal(sc.Bytes(), &frame) != nil {
			continue
		}
		switch frame["type"] {
		case "result":
			result = frame
		case "stream_event":
			ev := frame["event"].(map[string]any)
			if d, ok := ev["delta"].(map[string]any); ok && d["type"] == "text_delta" {
				deltas.WriteString(d["text"].(string))
			}
		}
	}
	if result == nil || result["result"] != "FINAL: done" || result["is_error"] != false || result["num_turns"] != 2.0 {
		t.Fatalf("result frame = %v\n%s", result, out)
	}
	if !strings.Contains(deltas.String(), "Running it now.") {
		t.Errorf("text deltas seen by claude = %q", deltas.String())
	}
	es := srv.Log().Entries()
	if len(es) != 2 {
		t.Fatalf("%d requests: %+v", len(es), es)
	}
	first, second := es[0], es[1]
	if !slices.Contains(first.System, "Stratos fake-model test") || !slices.Contains(first.Tools, "Bash") ||
		!slices.Contains(first.Tools, "Read") || first.Prompt != "[bash] say hi" || !first.Stream || first.Auth != "x-api-key" {
		t.Errorf("first request = %+v", first.Facts)
	}
	if len(first.SystemMessages) == 0 || !strings.Contains(first.SystemMessages[0], "# Environment") {
		t.Errorf("no role:system environment entry: %q", first.SystemMessages)
	}
	want := []ToolResult{{ToolUseID: "toolu_fake_1_2", Content: "hi-from-bash"}}
	if !reflect.DeepEqual(second.ToolResults, want) {
		t.Errorf("tool results = %+v, want %+v", second.ToolResults, want)
	}
	if len(srv.UnusedTurns()) != 0 {
		t.Errorf("unused turns: %v", srv.UnusedTurns())
	}
}

func TestRealClaudeStructuredOutputAndModelNotFound(t *testing.T) {
	bin := claudeBinary(t)
	srv := startFake(t, `{"turns":[
	  {"match":{"model":"claude-fake-1"},"reply":[{"structuredOutput":{"name":"Ada","age":36}}]},
	  {"match":{"model":"claude-missing"},"repeat":true,"error":{"kind":"not_found"}}
	]}`, Options{})
	schema := `{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}},"required":["name","age"]}`
	var res map[string]any
	if err := json.Unmarshal(runClaude(t, bin, srv, 0, "-p", "give me a person", "--model=claude-fake-1", "--tools=",
		"--output-format=json", "--json-schema="+schema), &res); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res["structured_output"], map[string]any{"name": "Ada", "age": 36.0}) {
		t.Errorf("structured result = %v", res)
	}
	if tools := srv.Log().Entries()[0].Tools; !slices.Contains(tools, "StructuredOutput") {
		t.Errorf("StructuredOutput not offered: %v", tools)
	}
	if err := json.Unmarshal(runClaude(t, bin, srv, 1, "-p", "hello", "--model=claude-missing", "--tools=",
		"--output-format=json"), &res); err != nil {
		t.Fatal(err)
	}
	if res["is_error"] != true || res["api_error_status"] != 404.0 || res["api_error_type"] != "not_found_error" {
		t.Errorf("not_found result = %v", res)
	}
}
