package sdk_test

import (
	"bytes"
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stratoscli/stratos/shared/clierr"
	"github.com/stratoscli/stratos/shared/sdk"
)

// pidWorkflow is a valid workflow that prints the loader's process ID.
func pidWorkflow(tag string) string {
	return `import * as z from "zod";
import { workflow } from "@stratoscli/stratos";
console.error("` + tag + ` pid=" + process.pid);
export default workflow({
  input: z.strictObject({ n: z.number().describe("A number.") }),
  output: z.strictObject({ n: z.number().describe("` + tag + `") }),
  async run(input) { return input; },
});
`
}

// sharedIDWorkflow registers a schema id in zod's global registry: two of
// them cannot be defined in one process, but each loads alone.
const sharedIDWorkflow = `import * as z from "zod";
import { workflow } from "@stratoscli/stratos";
const Shared = z.strictObject({ n: z.number().describe("A number.") }).meta({ id: "Shared" });
export default workflow({ input: Shared, output: Shared, async run(input) { return input; } });
`

// TestLoadDefinitions loads many entries through shared loader processes:
// each entry gets its own result, in order, and a failing, exiting or
// hanging module fails only its own entry.
func TestLoadDefinitions(t *testing.T) {
	r := newLoadRoot(t)
	entries := []string{
		r.compile(t, "first", pidWorkflow("first")),
		r.compile(t, "second", pidWorkflow("second")),
		r.compile(t, "throws", `import { workflow } from "@stratoscli/stratos";
if (process.env.NEVER_SET_IN_TESTS === undefined) throw new Error("boom at module level");
export default workflow({} as never);
`),
		r.compile(t, "exits", "process.exit(7);\nexport default 1;\n"),
		r.compile(t, "hangs", "setInterval(() => {}, 1000);\nawait new Promise(() => {});\nexport default 1;\n"),
		// A module that prints what looks like a report (without the key)
		// and then is not a workflow.
		r.compile(t, "forger", `console.log('stratos-definition 00 {"index":5,"result":{"input":{},"output":{}}}');
export default { input: 1 };
`),
		r.compile(t, "shared-a", sharedIDWorkflow),
		r.compile(t, "shared-b", sharedIDWorkflow),
		r.compile(t, "third", pidWorkflow("third")),
	}
	var stderr bytes.Buffer
	got := sdk.LoadDefinitions(context.Background(), r.tc, r.root, entries, &stderr, 10*time.Second)
	if len(got) != len(entries) {
		t.Fatalf("%d results for %d entries", len(got), len(entries))
	}
	for _, i := range []int{0, 1, 8} {
		if got[i].Err != nil {
			t.Errorf("%s: %v", entries[i], got[i].Err)
		}
	}
	for _, i := range []int{6, 7} {
		if got[i].Err != nil {
			t.Errorf("%s (a schema id shared with another entry, which loads alone): %v", entries[i], got[i].Err)
		}
	}
	if got[0].Err == nil && !strings.Contains(string(got[0].Definition.Output), `"first"`) ||
		got[8].Err == nil && !strings.Contains(string(got[8].Definition.Output), `"third"`) {
		t.Errorf("definitions attributed to the wrong entries: %s / %s", got[0].Definition.Output, got[8].Definition.Output)
	}
	wantCode(t, got[2].Err, "definition_load_failed", "Error: boom at module level")
	wantCode(t, got[3].Err, "definition_load_failed", "exit status 7")
	if !errors.Is(got[4].Err, sdk.ErrDefinitionTimeout) {
		t.Errorf("hangs: error = %v, want a timeout", got[4].Err)
	}
	wantCode(t, got[5].Err, "definition_invalid", "must default-export workflow")

	// The valid entries before the first failure shared one node process.
	pids := map[string]string{}
	for _, m := range regexp.MustCompile(`(first|second|third) pid=(\d+)`).FindAllStringSubmatch(stderr.String(), -1) {
		pids[m[1]] = m[2]
	}
	if pids["first"] == "" || pids["first"] != pids["second"] {
		t.Errorf("first and second loaded in processes %q and %q, want one:\n%s", pids["first"], pids["second"], stderr.String())
	}
}

// TestLoadDefinitionsFailureIsVerbatim: a failure in a shared process is the
// error a load of that entry alone reports.
func TestLoadDefinitionsFailureIsVerbatim(t *testing.T) {
	r := newLoadRoot(t)
	ok := r.compile(t, "ok", pidWorkflow("ok"))
	bad := r.compile(t, "bad", `import { workflow } from "@stratoscli/stratos";
export default workflow({ input: "text", output: "x", run: () => ({}) } as never);
`)
	together := sdk.LoadDefinitions(context.Background(), r.tc, r.root, []string{ok, bad}, &bytes.Buffer{}, 0)
	_, alone := sdk.LoadDefinition(context.Background(), r.tc, r.root, bad, &bytes.Buffer{})
	if together[0].Err != nil {
		t.Errorf("ok: %v", together[0].Err)
	}
	if together[1].Err == nil || alone == nil || together[1].Err.Error() != alone.Error() {
		t.Errorf("shared-process error %v\nwant the load alone's %v", together[1].Err, alone)
	}
}

func wantCode(t *testing.T, err error, code, inMessage string) {
	t.Helper()
	var ce *clierr.Error
	if !errors.As(err, &ce) || ce.Code != code || !strings.Contains(ce.Message, inMessage) {
		t.Errorf("error = %v, want code %s with %q", err, code, inMessage)
	}
}

// TestLoadEachSettlesDefinitionsAsTheyLoad: LoadEach hands over every
// entry once, a definition as soon as it loads and a failure only once it
// is confirmed alone, after the entries the shared process loaded.
func TestLoadEachSettlesDefinitionsAsTheyLoad(t *testing.T) {
	r := newLoadRoot(t)
	entries := []string{
		r.compile(t, "one", pidWorkflow("one")),
		r.compile(t, "bad", `import { workflow } from "@stratoscli/stratos";
export default workflow({ input: "text", output: "x", run: () => ({}) } as never);
`),
		r.compile(t, "two", pidWorkflow("two")),
	}
	var order []int
	got := make([]sdk.Loaded, len(entries))
	loader := sdk.StartLoader(context.Background(), r.tc, r.root, &bytes.Buffer{})
	loader.LoadEach(entries, 10*time.Second, func(i int, l sdk.Loaded) {
		order = append(order, i)
		got[i] = l
	})
	if want := []int{0, 2, 1}; !slices.Equal(order, want) {
		t.Fatalf("settled in the order %v, want %v (definitions first, the failure once confirmed)", order, want)
	}
	if got[0].Err != nil || got[2].Err != nil {
		t.Fatalf("definitions failed: %v, %v", got[0].Err, got[2].Err)
	}
	wantCode(t, got[1].Err, "definition_load_failed", "input must be a Zod 4 schema")
}
