package prompt

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stratoscli/stratos/shared/agentproto"
)

// FuzzRender renders any template with any variables: it ends without a
// panic, fails only with the codes a template can fail with, and renders
// the same text every time (a prompt must not depend on map order). The
// seeds are the example project's templates and the unit tests' cases
// (testdata/fuzz/FuzzRender holds the acceptance tests' templates).
func FuzzRender(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "examples", ".stratos", "workflows", "*", "prompts", "*.hbs"))
	if len(files) == 0 {
		f.Fatal("no example templates found as seeds")
	}
	for _, file := range files {
		body, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(body), `{"language":"TypeScript","focus":"correctness"}`)
	}
	for _, c := range [][2]string{
		{"Review {{language}} code.", `{"language":"Go"}`},
		{"{{#each items}}[{{this}}]{{/each}}", `{"items":["a","b"]}`},
		{"{{#each xs}}{{../sep}}{{@root.sep}}{{this}}{{/each}}", `{"xs":["a"],"sep":"-"}`},
		{"{{#if focus}}Focus: {{focus}}{{else}}{{other}}{{/if}}.", `{}`},
		{"{{#each m}}{{@key}}={{this}};{{/each}}", `{"m":{"b":2,"a":1,"c":3}}`},
		{"{{#with user}}{{name}}{{/with}} {{user.[first name]}} {{list.[1]}} {{list.length}}", `{"user":{"name":"Ada","first name":"A"},"list":[1,2]}`},
		{"{{> partial}} {{lookup m k}} {{#unless x}}{{/unless}}", `{"m":{},"k":"a"}`},
		{"{{!-- comment --}}{{{raw}}} {{&amp}} \\{{escaped}}", `{"raw":"<b>","amp":"&"}`},
	} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, body, varsJSON string) {
		var vars map[string]json.RawMessage
		if json.Unmarshal([]byte(varsJSON), &vars) != nil {
			vars = nil
		}
		tpl := Text{Body: body, Template: true, Origin: "fuzz.hbs"}
		out, err := tpl.Render("prompt", vars)
		if err != nil {
			codes := []string{agentproto.CodePromptFile, agentproto.CodeConfiguration, agentproto.CodeTemplateVariableMissing}
			if !slices.Contains(codes, agentproto.CodeOf(err)) {
				t.Fatalf("Render failed with code %q: %v", agentproto.CodeOf(err), err)
			}
			return
		}
		for range 3 {
			again, err := tpl.Render("prompt", vars)
			if err != nil || again != out {
				t.Fatalf("rendered %q, then %q (%v)", out, again, err)
			}
		}
	})
}

// FuzzRenderInsertsValuesVerbatim checks that a prompt's variables reach
// the text as they are, HTML characters and template syntax included,
// through {{x}}, {{{x}}}, a nested path and an each loop, and through the
// test harness's inline templates alike.
func FuzzRenderInsertsValuesVerbatim(f *testing.F) {
	f.Add("a < b && c")
	f.Add("{{x}} is not expanded again")
	f.Add("\"quotes\" and 'apostrophes' and `backticks` and =")
	f.Add("")
	f.Fuzz(func(t *testing.T, value string) {
		raw, err := json.Marshal(value)
		if err != nil {
			t.Fatal(err)
		}
		var decoded string
		if err := json.Unmarshal(raw, &decoded); err != nil {
			t.Fatal(err)
		}
		vars := map[string]json.RawMessage{"x": raw, "user": json.RawMessage(`{"name":` + string(raw) + `}`), "xs": json.RawMessage(`[` + string(raw) + `]`)}
		body := "{{x}}|{{{x}}}|{{user.name}}|{{#each xs}}{{this}}{{/each}}"
		want := decoded + "|" + decoded + "|" + decoded + "|" + decoded
		got, err := Text{Body: body, Template: true, Origin: "fuzz.hbs"}.Render("prompt", vars)
		if err != nil || got != want {
			t.Fatalf("Render = %q, %v; want %q", got, err, want)
		}
		got, err = new(Inline).Render(body, map[string]any{"x": decoded, "user": map[string]any{"name": decoded}, "xs": []any{decoded}})
		if err != nil || got != want {
			t.Fatalf("Render = %q, %v; want %q", got, err, want)
		}
	})
}
