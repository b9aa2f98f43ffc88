package agentproto

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// tsFile is the SDK's view of this protocol.
const tsFile = "../sdk/src/agent-protocol.ts"

func readTS(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(tsFile)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// block returns the text between the opening line matching head and the
// next line that closes it at the start of a line.
func block(t *testing.T, src, head, closing string) string {
	t.Helper()
	i := strings.Index(src, head)
	if i < 0 {
		t.Fatalf("%s: no %q", tsFile, head)
	}
	rest := src[i+len(head):]
	j := strings.Index(rest, "\n"+closing)
	if j < 0 {
		t.Fatalf("%s: %q is not closed by %q", tsFile, head, closing)
	}
	return rest[:j]
}

var quoted = regexp.MustCompile(`"([^"]+)"`)

func strings_(s string) []string {
	var out []string
	for _, m := range quoted.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	sort.Strings(out)
	return out
}

func TestMethodsMatchTypeScript(t *testing.T) {
	ts := strings_(block(t, readTS(t), "export const Methods = {", "}"))
	if !slices.Equal(ts, Methods()) {
		t.Fatalf("methods differ:\n  TypeScript %v\n  Go         %v", ts, Methods())
	}
}

func TestErrorCodesMatchTypeScript(t *testing.T) {
	ts := strings_(block(t, readTS(t), "export const ErrorCodes = [", "]"))
	if !slices.Equal(ts, ErrorCodes()) {
		t.Fatalf("error codes differ:\n  TypeScript %v\n  Go         %v", ts, ErrorCodes())
	}
}

var field = regexp.MustCompile(`(?m)^  (\w+)(\??):`)

// TestMessagesMatchTypeScript compares the JSON fields of every message type
// with the TypeScript interface of the same name, including which fields are
// optional (omitempty in Go, "?" in TypeScript).
func TestMessagesMatchTypeScript(t *testing.T) {
	src := readTS(t)
	types := []any{
		InitializeParams{}, Settings{}, InitializeResult{}, WorkflowRef{}, Overrides{}, ExecuteParams{}, ExecuteResult{},
		AgentRef{}, CancelParams{}, ExecutionRef{}, CloseResult{}, ToolCallParams{}, AfterToolCallParams{}, ToolError{},
		BeforeToolCallResult{}, AfterToolCallResult{}, LifecycleParams{}, Event{}, ErrorData{},
		AgentConfig{}, TemplateVariables{}, Worktree{},
	}
	for _, v := range types {
		typ := reflect.TypeOf(v)
		var goFields []string
		for i := 0; i < typ.NumField(); i++ {
			tag := typ.Field(i).Tag.Get("json")
			name, opts, _ := strings.Cut(tag, ",")
			if name == "" || name == "-" {
				continue
			}
			if strings.Contains(opts, "omitempty") {
				name += "?"
			}
			goFields = append(goFields, name)
		}
		var tsFields []string
		for _, m := range field.FindAllStringSubmatch(block(t, src, "export interface "+typ.Name()+" {", "}"), -1) {
			tsFields = append(tsFields, m[1]+m[2])
		}
		sort.Strings(goFields)
		sort.Strings(tsFields)
		if !slices.Equal(goFields, tsFields) {
			t.Errorf("%s differs:\n  TypeScript %v\n  Go         %v", typ.Name(), tsFields, goFields)
		}
	}
}

func TestProtocolVersionMatchesTypeScript(t *testing.T) {
	if !strings.Contains(readTS(t), "export const ProtocolVersion = "+itoa(ProtocolVersion)+";") {
		t.Fatalf("%s does not declare ProtocolVersion = %d", tsFile, ProtocolVersion)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
