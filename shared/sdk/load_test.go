package sdk_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/sdk"
	"github.com/stratoscli/stratos/shared/toolchain"
	"github.com/stratoscli/stratos/shared/toolchain/toolchaintest"
)

const summarizeTS = `import * as z from "zod";
import { workflow } from "@stratoscli/stratos";

console.log("noisy top-level log");
console.error("noisy top-level error");
console.log("cwd=" + process.cwd());
setInterval(() => {}, 1000); // would keep a naive loader alive forever

export default workflow({
  input: z.strictObject({
    topic: z.string().describe("What to summarize"),
    count: z.number().int().default(3).describe(""),
    since: z.date().optional().describe("Only after this"),
    slug: z.string().transform((s) => s.toLowerCase()).describe("Slug"),
    nested: z.strictObject({
      even: z.number().refine((n) => n % 2 === 0).describe("An even number"),
    }).describe("Nested"),
  }),
  output: z.strictObject({
    summary: z.string().describe("The summary"),
    words: z.number().default(0).describe("Word count"),
  }),
  async run(input) {
    console.log("RUN WAS CALLED");
    return { summary: input.topic };
  },
});
`

// loadRoot is a discovery root with the SDK installed and compiled workflows.
type loadRoot struct {
	tc   *toolchain.Toolchain
	root string
}

func newLoadRoot(t testing.TB) *loadRoot {
	tc := toolchaintest.Ensure(t)
	root := t.TempDir()
	if _, err := sdk.EnsureInstalled(context.Background(), tc, root, toolchaintest.Logger(t)); err != nil {
		t.Fatal(err)
	}
	return &loadRoot{tc: tc, root: root}
}

// compile writes <root>/<name>/workflow.ts and compiles it like the build
// does (rootDir = the discovery root, outDir = <wf>/dist); it returns the
// compiled entry relative to the root.
func (r *loadRoot) compile(t testing.TB, name, source string) string {
	t.Helper()
	writeFile(t, filepath.Join(r.root, name, "package.json"), `{"type":"module"}`)
	writeFile(t, filepath.Join(r.root, name, "workflow.ts"), source)
	args := append(r.tc.CompilerFlags(), "--rootDir", r.root, "--outDir", filepath.Join(r.root, name, "dist"),
		filepath.Join(r.root, name, "workflow.ts"))
	if out, err := r.tc.TscCommand(context.Background(), r.root, args...).CombinedOutput(); err != nil {
		t.Fatalf("tsc %s: %v\n%s", name, err, out)
	}
	return filepath.Join(name, "dist", name, "workflow.js")
}

// TestLoadDefinition shares one root (one SDK install) among its parts.
func TestLoadDefinition(t *testing.T) {
	r := newLoadRoot(t)
	t.Run("contract", func(t *testing.T) { testContract(t, r) })
	t.Run("failures", func(t *testing.T) { testFailures(t, r) })
	t.Run("shadowed", func(t *testing.T) { testShadowedSDK(t, r) })
	t.Run("runtime", func(t *testing.T) { testRuntimeModules(t, r) })
}

func testContract(t *testing.T, r *loadRoot) {
	entry := r.compile(t, "summarize", summarizeTS)

	var stderr bytes.Buffer
	def, err := sdk.LoadDefinition(context.Background(), r.tc, r.root, entry, &stderr)
	if err != nil {
		t.Fatalf("LoadDefinition: %v\nstderr:\n%s", err, stderr.String())
	}

	// The module's top-level output reached stderr, and did not corrupt the result.
	cwd, _ := os.Getwd()
	for _, want := range []string{"noisy top-level log", "noisy top-level error", "cwd=" + cwd} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q (the working directory must be the caller's):\n%s", want, stderr.String())
		}
	}
	if strings.Contains(stderr.String(), "RUN WAS CALLED") {
		t.Error("loading a definition called run")
	}

	var input, output schema
	mustUnmarshal(t, def.Input, &input)
	mustUnmarshal(t, def.Output, &output)
	if input.Type != "object" || string(input.AdditionalProperties) != "false" {
		t.Errorf("input: type %q additionalProperties %s", input.Type, input.AdditionalProperties)
	}
	// Input side: a field with a default is optional; output side: it is always there.
	if want := []string{"topic", "slug", "nested"}; !reflect.DeepEqual(input.Required, want) {
		t.Errorf("input required = %q, want %q", input.Required, want)
	}
	if want := []string{"summary", "words"}; !reflect.DeepEqual(output.Required, want) {
		t.Errorf("output required = %q, want %q", output.Required, want)
	}
	if got := input.Properties["count"]; got.Description == nil || *got.Description != "" || string(got.Default) != "3" {
		t.Errorf("input count = %+v, want an empty description and default 3", got)
	}
	if got := input.Properties["topic"]; got.Description == nil || *got.Description != "What to summarize" {
		t.Errorf("input topic = %+v", got)
	}

	want := []sdk.Unrepresentable{
		{Side: "input", Path: "/properties/nested/properties/even", Kind: "refine"},
		{Side: "input", Path: "/properties/since", Kind: "date"},
		{Side: "input", Path: "/properties/slug", Kind: "transform"},
	}
	if !reflect.DeepEqual(def.Unrepresentable, want) {
		t.Errorf("unrepresentable = %+v\nwant %+v", def.Unrepresentable, want)
	}
	err = def.UnrepresentableError("summarize")
	if ce := clierr.As(err); err == nil || ce.Code != "schema_unrepresentable" || !strings.Contains(ce.Message, "input /properties/since: a Date") {
		t.Errorf("UnrepresentableError = %v", err)
	}

	// The absolute path of the entry works the same.
	if _, err := sdk.LoadDefinition(context.Background(), r.tc, r.root, filepath.Join(r.root, entry), &bytes.Buffer{}); err != nil {
		t.Errorf("absolute entry: %v", err)
	}
}

func testFailures(t *testing.T, r *loadRoot) {
	cases := []struct {
		name, source, code string
		inMessage          []string
	}{
		{"not-a-workflow", "export default { input: 1 };\n", "definition_invalid",
			[]string{"must default-export workflow({ input, output, run })", "an object that is not a workflow(...) result"}},
		{"no-default", "export const x = 1;\n", "definition_invalid", []string{"undefined"}},
		{"throws", `import { workflow } from "@stratoscli/stratos";
if (process.env.NEVER_SET_IN_TESTS === undefined) throw new Error("boom at module level");
export default workflow({} as never);
`, "definition_load_failed", []string{"Error: boom at module level"}},
		{"bad-spec", `import { workflow } from "@stratoscli/stratos";
export default workflow({ input: "text", output: "x", run: () => ({}) } as never);
`, "definition_load_failed", []string{"TypeError: workflow(): input must be a Zod 4 schema, got string \"text\""}},
		{"exits", `process.exit(7);
export default 1;
`, "definition_load_failed", []string{"exit status 7"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			entry := r.compile(t, c.name, c.source)
			_, err := sdk.LoadDefinition(context.Background(), r.tc, r.root, entry, &bytes.Buffer{})
			var ce *clierr.Error
			if !errors.As(err, &ce) || ce.Code != c.code {
				t.Fatalf("error = %v, want code %s", err, c.code)
			}
			for _, want := range c.inMessage {
				if !strings.Contains(ce.Message, want) {
					t.Errorf("message %q lacks %q", ce.Message, want)
				}
			}
		})
	}
}

// testShadowedSDK: a workflow with its own copy of the SDK gets
// a different module instance; the loader refuses it.
func testShadowedSDK(t *testing.T, r *loadRoot) {
	wf := filepath.Join(r.root, "shadowed")
	copyDir(t, sdk.InstalledDir(r.root), filepath.Join(wf, "node_modules", "@stratoscli", "stratos"))
	entry := r.compile(t, "shadowed", summarizeTS)
	_, err := sdk.LoadDefinition(context.Background(), r.tc, r.root, entry, &bytes.Buffer{})
	var ce *clierr.Error
	if !errors.As(err, &ce) || ce.Code != "sdk_shadowed" || !strings.Contains(ce.Message, "another copy of @stratoscli/stratos") {
		t.Fatalf("error = %v, want sdk_shadowed", err)
	}
	if err := sdk.FindShadowingSDK(r.root, wf); err == nil {
		t.Error("FindShadowingSDK did not report the copy")
	}
}

// testRuntimeModules runs the SDK's runtime pieces in node: the context store
// is one per process even across SDK copies, and child workflows bind
// without executing (executing needs a running workflow).
func testRuntimeModules(t *testing.T, r *loadRoot) {
	dist := filepath.Join(sdk.InstalledDir(r.root), "dist")
	script := `
const a = await import(process.argv[1] + "/context.js");
const b = await import(process.argv[1] + "/context.js?copy=2");
if (a === b) throw new Error("test setup: expected two module instances");
const store = a.contextStorage();
if (store !== b.contextStorage()) throw new Error("two SDK copies have two context stores");
store.run({ executionId: "e1" }, () => setTimeout(() => console.log("ctx", b.getContext("agent").executionId)));
try { a.getContext("createAgent"); } catch (e) { console.log("outside:", e.message); }

const { createChildWorkflow } = await import(process.argv[1] + "/generated.js");
const child = createChildWorkflow({ name: "summarize", dir: "summarize", entry: "summarize/dist/summarize/workflow.js" },
  { overrides: { agents: { writer: { effort: "max" } } } });
await child.execute({ topic: "x" }).then(() => console.log("resolved?!"), (e) => console.log("rejected:", e.name, "[" + e.code + "]:", e.message));
try { createChildWorkflow({ name: "", dir: "d", entry: "e" }); } catch (e) { console.log(e.name + ":", e.message); }
`
	cmd := r.tc.NodeCommand(context.Background(), "--input-type=module", "-e", script, "file://"+dist)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	for _, want := range []string{
		"outside: createAgent must be called inside a running workflow",
		`rejected: NoExecutionContextError [no_execution_context]: execute() of child workflow "summarize" must be called inside a running workflow`,
		"TypeError: createChildWorkflow(): reference.name must be a non-empty string",
		"ctx e1",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

type schema struct {
	Type                 string             `json:"type"`
	Description          *string            `json:"description"`
	Default              json.RawMessage    `json:"default"`
	Required             []string           `json:"required"`
	AdditionalProperties json.RawMessage    `json:"additionalProperties"`
	Properties           map[string]*schema `json:"properties"`
}

func mustUnmarshal(t *testing.T, data []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%v in %s", err, data)
	}
}

func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("cp", "-R", src, dst).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
}
