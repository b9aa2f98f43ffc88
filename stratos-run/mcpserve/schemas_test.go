package mcpserve

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
)

// Every input and output schema of every tool, as a client lists them, is
// portable: strict clients (the MCP Inspector's strict check, Claude Code's
// parser, VS Code) warn on or refuse a type list that admits null, a
// schema without a type (an untyped `output`, a bare true) and a list
// without its items' schema.
func TestToolSchemasArePortable(t *testing.T) {
	for _, tool := range listTools(t) {
		for what, schema := range map[string]any{"input": tool.InputSchema, "output": tool.OutputSchema} {
			raw, err := json.Marshal(schema)
			if err != nil {
				t.Fatal(err)
			}
			var doc any
			if err := json.Unmarshal(raw, &doc); err != nil {
				t.Fatal(err)
			}
			for _, p := range unportable(what+"Schema", doc) {
				t.Errorf("%s: %s", tool.Name, p)
			}
		}
	}
}

// The check refuses each pattern, wherever a schema nests it.
func TestUnportableNamesEveryPattern(t *testing.T) {
	var doc any
	if err := json.Unmarshal([]byte(`{"type": "object", "properties": {
		"list": {"type": ["null", "array"], "items": {"type": "string"}},
		"code": {"type": ["integer", "null"]},
		"output": {"description": "anything"},
		"bare": true,
		"items": {"type": "array"},
		"nested": {"type": "array", "items": {"type": "object", "properties": {"deep": {}}}},
		"open": {"type": "object", "additionalProperties": true},
		"ref": {"$ref": "#/$defs/x"},
		"choice": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}`), &doc); err != nil {
		t.Fatal(err)
	}
	got := unportable("schema", doc)
	want := []string{
		`schema.properties.bare: a bare true or false schema; give it a type`,
		`schema.properties.code: type ["integer","null"] admits null; leave the value out instead`,
		`schema.properties.items: an array without an items schema`,
		`schema.properties.list: type ["null","array"] admits null; leave the value out instead`,
		`schema.properties.nested.items.properties.deep: no type`,
		`schema.properties.output: no type`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// unportable returns what strict clients warn about in the schema at
// path, sorted.
func unportable(path string, schema any) []string {
	var problems []string
	walkSchema(path, schema, func(path string, s any) {
		m, ok := s.(map[string]any)
		if !ok {
			problems = append(problems, path+": a bare true or false schema; give it a type")
			return
		}
		switch typ := m["type"].(type) {
		case nil:
			if !hasAny(m, "$ref", "anyOf", "oneOf", "allOf", "enum", "const") {
				problems = append(problems, path+": no type")
			}
		case []any:
			if slices.Contains(typ, any("null")) {
				b, _ := json.Marshal(typ)
				problems = append(problems, fmt.Sprintf("%s: type %s admits null; leave the value out instead", path, b))
			}
		case string:
			if typ == "array" && m["items"] == nil {
				problems = append(problems, path+": an array without an items schema")
			}
		}
	})
	slices.Sort(problems)
	return problems
}

// walkSchema calls f with every schema in s: s itself, its properties, its
// items, its definitions and the branches of its combinators. An
// additionalProperties that is a boolean says whether other properties
// may appear, and is no schema of a value to check.
func walkSchema(path string, s any, f func(path string, s any)) {
	f(path, s)
	m, ok := s.(map[string]any)
	if !ok {
		return
	}
	for _, key := range []string{"properties", "$defs"} {
		children, _ := m[key].(map[string]any)
		for name, child := range children {
			walkSchema(path+"."+key+"."+name, child, f)
		}
	}
	for _, key := range []string{"items", "additionalProperties", "not"} {
		if child, ok := m[key]; ok {
			if _, isBool := child.(bool); isBool && key == "additionalProperties" {
				continue
			}
			walkSchema(path+"."+key, child, f)
		}
	}
	for _, key := range []string{"anyOf", "oneOf", "allOf", "prefixItems"} {
		branches, _ := m[key].([]any)
		for i, child := range branches {
			walkSchema(fmt.Sprintf("%s.%s[%d]", path, key, i), child, f)
		}
	}
}

func hasAny(m map[string]any, keys ...string) bool {
	for _, k := range keys {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// listTools lists the tools of a new server as a client sees them.
func listTools(t *testing.T) []*mcp.Tool {
	t.Helper()
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	ctx := t.Context()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	var tools []*mcp.Tool
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		tools = append(tools, tool)
	}
	if len(tools) == 0 {
		t.Fatal("the server lists no tools")
	}
	return tools
}

// run_logs' events keep object details, and only those: details of an
// unknown kind that are no object are left out, as its schema says.
func TestRunLogsDetailsAreObjects(t *testing.T) {
	for line, want := range map[string]string{
		`{"v":1,"type":"future.kind","timestamp":"t","executionId":"x","details":5}`:                 `{"v":1,"type":"future.kind","timestamp":"t","executionId":"x"}`,
		`{"v":1,"type":"future.kind","timestamp":"t","executionId":"x","details":null}`:              `{"v":1,"type":"future.kind","timestamp":"t","executionId":"x"}`,
		`{"v":1,"type":"future.kind","timestamp":"t","executionId":"x","details":{"a":[1]}}`:         `{"v":1,"type":"future.kind","timestamp":"t","executionId":"x","details":{"a":[1]}}`,
		`{"v":1,"type":"workflow.log","timestamp":"t","executionId":"x","details":{"message":"hi"}}`: `{"v":1,"type":"workflow.log","timestamp":"t","executionId":"x","details":{"message":"hi"}}`,
	} {
		var got []byte
		eachEvent(func(e eventapi.Event) {
			var err error
			if got, err = json.Marshal(objectDetails(e)); err != nil {
				t.Fatal(err)
			}
		})([]byte(line))
		if string(got) != want {
			t.Errorf("%s\nbecame %s\nwant   %s", line, got, want)
		}
	}
}

// A workflow's output is passed on as the run wrote it: its key order and
// its numbers as they were.
func TestObjectKeepsTheOutput(t *testing.T) {
	var res RunResult
	if err := json.Unmarshal([]byte(`{"executionId":"x","workflow":"w","output":{"z":12345678901234567890,"a":{"b":1}}}`), &res); err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"executionId":"x","workflow":"w","output":{"z":12345678901234567890,"a":{"b":1}}}`; string(got) != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}
