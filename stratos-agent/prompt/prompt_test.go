package prompt

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
)

func vars(t *testing.T, js string) map[string]json.RawMessage {
	t.Helper()
	if js == "" {
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRenderTemplates(t *testing.T) {
	cases := []struct {
		name, body, vars string
		want             string
		missing          string // the variable reported missing, if any
	}{
		{"plain variable", "Review {{language}} code.", `{"language":"Go"}`, "Review Go code.", ""},
		{"missing variable", "Review {{language}} code.", `{}`, "", "language"},
		{"no variables at all", "Review {{language}}.", ``, "", "language"},
		{"null is supplied", "[{{x}}]", `{"x":null}`, "[]", ""},
		{"no HTML escaping", "{{code}}", `{"code":"a < b && c"}`, "a < b && c", ""},
		{"triple stash", "{{{code}}}", `{"code":"<T>"}`, "<T>", ""},
		{"numbers and booleans", "{{n}} {{b}}", `{"n":3,"b":true}`, "3 true", ""},
		{"nested path", "{{user.name}}", `{"user":{"name":"Ada"}}`, "Ada", ""},
		{"nested path missing leaf", "{{user.name}}", `{"user":{}}`, "", "user.name"},
		{"each over a list", "{{#each items}}[{{this}}]{{/each}}", `{"items":["a","b"]}`, "[a][b]", ""},
		{"each list missing", "{{#each items}}[{{this}}]{{/each}}", `{}`, "", "items"},
		{"each over an object in key order", "{{#each m}}{{@index}}:{{@key}}={{this}}{{#if @first}}<{{/if}}{{#if @last}}>{{/if}};{{/each}}", `{"m":{"b":2,"c":3,"a":1,"B":0}}`, "0:B=0<;1:a=1;2:b=2;3:c=3>;", ""},
		{"each item by block parameter", "{{#each xs as |x|}}{{x}}{{@index}}{{/each}}", `{"xs":["p","q"]}`, "p0q1", ""},
		{"each else when empty", "{{#each xs}}{{this}}{{else}}none{{/each}}", `{"xs":[]}`, "none", ""},
		{"item fields are not root variables", "{{#each people}}{{name}};{{/each}}", `{"people":[{"name":"A"},{"name":"B"}]}`, "A;B;", ""},
		{"root from inside each", "{{#each xs}}{{../sep}}{{this}}{{/each}}", `{"xs":["a"],"sep":"-"}`, "-a", ""},
		{"root from inside each missing", "{{#each xs}}{{../sep}}{{/each}}", `{"xs":["a"]}`, "", "sep"},
		{"@root missing", "{{#each xs}}{{@root.sep}}{{/each}}", `{"xs":["a"]}`, "", "sep"},
		{"if guards its own variable", "{{#if focus}}Focus: {{focus}}{{/if}}.", `{}`, ".", ""},
		{"if with value", "{{#if focus}}Focus: {{focus}}{{/if}}.", `{"focus":"speed"}`, "Focus: speed.", ""},
		{"if does not guard others", "{{#if focus}}{{other}}{{/if}}", `{"focus":true}`, "", "other"},
		{"else branch is not guarded", "{{#if a}}x{{else}}{{a}}{{/if}}", `{}`, "", "a"},
		{"unless guards the else branch", "{{#unless a}}none{{else}}{{a}}{{/unless}}", `{}`, "none", ""},
		{"with changes context", "{{#with user}}{{name}}{{/with}}", `{"user":{"name":"Z"}}`, "Z", ""},
		{"with needs its value", "{{#with user}}{{name}}{{/with}}", `{}`, "", "user"},
		{"helper arguments", `{{lookup map key}}`, `{"map":{"k":"v"},"key":"k"}`, "v", ""},
		{"helper argument missing", `{{lookup map key}}`, `{"map":{}}`, "", "key"},
		{"comments ignored", "{{!-- {{nothing}} --}}ok", `{}`, "ok", ""},
		{"array index", "{{xs.[1]}}", `{"xs":["a","b"]}`, "b", ""},
		{"object value replaced whole", "{{a.b}}", `{"a":{"c":1}}`, "", "a.b"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Text{Body: c.body, Template: true, Origin: "t.hbs"}.Render("prompt", vars(t, c.vars))
			if c.missing != "" {
				var pe *agentproto.Error
				if !errors.As(err, &pe) || pe.Code != agentproto.CodeTemplateVariableMissing {
					t.Fatalf("got %q, %v; want a template_variable_missing error", got, err)
				}
				if pe.Details["variable"] != c.missing {
					t.Fatalf("missing variable %v, want %q (%v)", pe.Details["variable"], c.missing, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestLiteralAndFileAreNotTemplates(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p.md"), []byte("use {{braces}}"), 0o644); err != nil {
		t.Fatal(err)
	}
	lit := "say {{hi}}"
	for _, src := range []agentproto.PromptSource{{Text: &lit}, {File: "p.md"}} {
		txt, err := Load(src, dir)
		if err != nil {
			t.Fatal(err)
		}
		got, err := txt.Render("prompt", nil)
		if err != nil || got != txt.Body {
			t.Fatalf("%s: got %q, %v; want the text unchanged", src.Kind(), got, err)
		}
	}
}

func TestLoadResolvesAgainstRoot(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "prompts"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "prompts", "r.hbs"), []byte("Hi {{name}}"), 0o644); err != nil {
		t.Fatal(err)
	}
	txt, err := Load(agentproto.PromptSource{Template: "prompts/r.hbs"}, dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := txt.Render("systemPrompt", vars(t, `{"name":"Bo"}`))
	if err != nil || got != "Hi Bo" {
		t.Fatalf("got %q, %v", got, err)
	}
	_, err = Load(agentproto.PromptSource{File: "nope.md"}, dir)
	if agentproto.CodeOf(err) != agentproto.CodePromptFile {
		t.Fatalf("missing file: got %v, want a prompt_file error", err)
	}
}

// TestATemplateRaymondCannotEvaluateIsItsError: templates that parse but
// make raymond's evaluation panic are this template's error (the panic
// ended the agent host), in prompts and in the test harness's replies.
func TestATemplateRaymondCannotEvaluateIsItsError(t *testing.T) {
	for _, body := range []string{"{{@.}}", "{{#if a @index}}x{{/if}}"} {
		tpl := Text{Body: body, Template: true, Origin: "inline"}
		_, err := tpl.Render("prompt", map[string]json.RawMessage{"a": json.RawMessage(`1`)})
		if err == nil || agentproto.CodeOf(err) != agentproto.CodePromptFile || !strings.Contains(err.Error(), "cannot be evaluated") {
			t.Errorf("Render(%q) = %v", body, err)
		}
		if _, err := new(Inline).Render(body, map[string]any{"a": 1}); err == nil {
			t.Errorf("Render(%q) succeeded", body)
		}
	}
}

// each cannot set a second block parameter: a template naming one is
// refused with its line, not rendered with the name empty.
func TestEachKeyParameterIsRefused(t *testing.T) {
	_, err := Text{Body: "x\n{{#each m as |v k|}}{{k}}{{/each}}", Template: true, Origin: "t.hbs"}.Render("prompt", vars(t, `{"m":{"a":1}}`))
	var pe *agentproto.Error
	if !errors.As(err, &pe) || pe.Code != agentproto.CodePromptFile || !strings.Contains(pe.Message, "t.hbs: line 2: each's second block parameter") {
		t.Fatalf("error %v, want a prompt_file error naming line 2", err)
	}
}
