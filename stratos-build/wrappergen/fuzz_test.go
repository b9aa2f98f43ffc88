package wrappergen

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// FuzzGenerate renders child wrappers from any input and output schemas:
// the generator never panics or loops, and the wrapper it renders is the
// same every time, exports its factory and each type name once, and is
// well-formed TypeScript text (see checkTypeScript): nothing a schema holds
// (descriptions, keys, enum values, defaults) escapes the comment or string
// it belongs in. The seeds are the zod fixtures (testdata/schemas).
func FuzzGenerate(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "schemas", "*.json"))
	if len(files) == 0 {
		f.Fatal("no schema fixtures found as seeds")
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		var fx fixture
		if err := json.Unmarshal(data, &fx); err != nil {
			f.Fatal(err)
		}
		f.Add(string(fx.Input), string(fx.Output))
	}
	f.Add(`{"type":"object","description":"ends the comment */ and starts code","properties":{"a*/b":{"type":"string","description":"x\u2028y\r\nz */"}}}`,
		`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`)
	f.Add(`{"enum":["a\"b","\u2029",1e400,{"k":[null]}],"default":"\\"}`, `{"type":["string","null"],"const":"'`+"`"+`${x}"}`)
	f.Fuzz(func(t *testing.T, input, output string) {
		w := wrapper("fuzz")
		w.Input, w.Output = json.RawMessage(input), json.RawMessage(output)
		src, err := Generate(w)
		if err != nil {
			return
		}
		again, err := Generate(w)
		if err != nil || string(again) != string(src) {
			t.Fatalf("a second generation differs (%v):\n%s\n----\n%s", err, src, again)
		}
		if !strings.Contains(string(src), "export default function createFuzz(") {
			t.Fatalf("wrapper without its factory:\n%s", src)
		}
		checkTypeScript(t, src)
	})
}

// FuzzGenerateMCP renders an MCP server's module from a tool as a server
// could list it (any name, description and schemas), with the same checks
// as FuzzGenerate: an MCP server is not trusted to write code into the
// workflow.
func FuzzGenerateMCP(f *testing.F) {
	f.Add("search-issues", "Searches the issues.", `{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`, `{"type":"object","properties":{"count":{"type":"integer"}}}`)
	f.Add("2fa", "*/ alert(1) /*", `{"type":"object"}`, "")
	f.Add("close", "\"); process.exit(1); (\"", `{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{}}}`, `{"type":"string"}`)
	f.Add("", "", `{}`, `{"$defs":{"":{}},"$ref":"#/$defs/"}`)
	f.Fuzz(func(t *testing.T, tool, description, input, output string) {
		s := MCPServer{Workflow: "demo", Name: "issue_tracker", Tools: []MCPTool{
			{Name: tool, Description: description, Input: json.RawMessage(input), Output: json.RawMessage(output)},
			{Name: tool, Description: description, Input: json.RawMessage(`{"type":"object"}`)},
		}}
		src, err := GenerateMCP(s)
		if err != nil {
			return
		}
		again, err := GenerateMCP(s)
		if err != nil || string(again) != string(src) {
			t.Fatalf("a second generation differs (%v):\n%s\n----\n%s", err, src, again)
		}
		checkTypeScript(t, src)
	})
}

// exportedName finds the names a generated module declares.
var exportedName = regexp.MustCompile(`(?m)^export (?:type|interface|default function|default async function) ([A-Za-z_$][A-Za-z0-9_$]*)`)

// checkTypeScript fails unless src is well-formed as generated TypeScript:
// every comment and string literal ends, on its own line for strings;
// outside them there is only ASCII code with balanced brackets; and every
// exported name is declared once.
func checkTypeScript(t *testing.T, src []byte) {
	t.Helper()
	if err := scanTypeScript(string(src)); err != nil {
		t.Fatalf("%v in:\n%s", err, src)
	}
	seen := map[string]bool{}
	for _, m := range exportedName.FindAllStringSubmatch(string(src), -1) {
		if seen[m[1]] {
			t.Fatalf("%s is declared twice in:\n%s", m[1], src)
		}
		seen[m[1]] = true
	}
}

// scanTypeScript is a small lexer for the generator's output: comments,
// string literals and brackets.
func scanTypeScript(src string) error {
	var stack []byte
	closer := map[byte]byte{')': '(', ']': '[', '}': '{'}
	line := 1
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\n':
			line++
		case strings.HasPrefix(src[i:], "//"):
			end := strings.IndexByte(src[i:], '\n')
			if end < 0 {
				return fmt.Errorf("line %d: a line comment ends the file without a newline", line)
			}
			i += end - 1
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return fmt.Errorf("line %d: a comment does not end", line)
			}
			line += strings.Count(src[i:i+2+end], "\n")
			i += 2 + end + 1
		case c == '"' || c == '\'':
			j := i + 1
			for ; j < len(src) && src[j] != c; j++ {
				if src[j] == '\\' {
					j++
				} else if src[j] == '\n' || src[j] == '\r' {
					break
				}
			}
			if j >= len(src) || src[j] != c {
				return fmt.Errorf("line %d: a string literal does not end on its line", line)
			}
			i = j
		case c == '(' || c == '[' || c == '{':
			stack = append(stack, c)
		case c == ')' || c == ']' || c == '}':
			if len(stack) == 0 || stack[len(stack)-1] != closer[c] {
				return fmt.Errorf("line %d: unbalanced %q", line, c)
			}
			stack = stack[:len(stack)-1]
		case c == '`' || c == '*' || c == '/':
			// The generator writes no template literals, no arithmetic and
			// no regular expressions: these only come from escaped text.
			return fmt.Errorf("line %d: %q outside any string or comment", line, c)
		case c >= 0x7f || (c < 0x20 && c != '\t'):
			return fmt.Errorf("line %d: byte %#x outside any string or comment", line, c)
		}
	}
	if len(stack) > 0 {
		return fmt.Errorf("unclosed %q at the end", stack)
	}
	return nil
}

// TestScanTypeScriptFindsBrokenText keeps the checker honest: each of
// these is what a generator that let a schema's text through would write.
func TestScanTypeScriptFindsBrokenText(t *testing.T) {
	for _, src := range []string{
		"/** a description */ that escaped */\n",
		"type A = \"a\nb\";\n",
		"type A = { a: string;\n",
		"type A = string]; \n",
		"/* never ends\n",
		"type A = `x`;\n",
		"type A = é;\n",
	} {
		if scanTypeScript(src) == nil {
			t.Errorf("scanTypeScript accepts %q", src)
		}
	}
	for _, src := range []string{"// c\n/** a */\ntype A = { \"k}\": \"v\\\"]\" };\n", "/*\n * x\n */\nexport interface B {}\n"} {
		if err := scanTypeScript(src); err != nil {
			t.Errorf("scanTypeScript(%q): %v", src, err)
		}
	}
}

// TestFuzzCorpusCompilesWithTsc compiles what the generators make of the
// checked-in fuzz corpora (testdata/fuzz/FuzzGenerate and
// FuzzGenerateMCP) with the pinned tsc against the real SDK declarations:
// whatever a schema holds, a wrapper the generator does not refuse is
// TypeScript that compiles.
func TestFuzzCorpusCompilesWithTsc(t *testing.T) {
	tc := ensureToolchain(t)
	root := newRoot(t)
	var files []string
	for i, args := range corpusEntries(t, "FuzzGenerate") {
		w := wrapper(fmt.Sprintf("fuzz-%d", i))
		w.Input, w.Output = json.RawMessage(args[0]), json.RawMessage(args[1])
		if src, err := Generate(w); err == nil {
			files = append(files, filepath.Join(root, ".generated", w.Name+".ts"))
			writeFile(t, files[len(files)-1], string(src))
		}
	}
	for i, args := range corpusEntries(t, "FuzzGenerateMCP") {
		s := MCPServer{Workflow: "demo", Name: fmt.Sprintf("server_%d", i), Tools: []MCPTool{
			{Name: args[0], Description: args[1], Input: json.RawMessage(args[2]), Output: json.RawMessage(args[3])}}}
		if src, err := GenerateMCP(s); err == nil {
			files = append(files, filepath.Join(root, "parent", "generated", "mcp", s.Name+".ts"))
			writeFile(t, files[len(files)-1], string(src))
		}
	}
	if len(files) < 10 {
		t.Fatalf("only %d generated files from the corpora; want the checked-in corpora of testdata/fuzz", len(files))
	}
	if out, err := compile(t, tc, root, files...); err != nil {
		t.Fatalf("tsc rejected generated files (%v):\n%s", err, out)
	}
}

// corpusEntries reads the string arguments of each file of
// testdata/fuzz/<target> (go test fuzz v1 encoding).
func corpusEntries(t *testing.T, target string) [][]string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "fuzz", target, "*"))
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		if len(lines) == 0 || lines[0] != "go test fuzz v1" {
			t.Fatalf("%s: not a fuzz corpus file", p)
		}
		var args []string
		for _, l := range lines[1:] {
			quoted, ok := strings.CutPrefix(l, "string(")
			s, err := strconv.Unquote(strings.TrimSuffix(quoted, ")"))
			if !ok || err != nil {
				t.Fatalf("%s: %q is not a string argument", p, l)
			}
			args = append(args, s)
		}
		out = append(out, args)
	}
	return out
}
