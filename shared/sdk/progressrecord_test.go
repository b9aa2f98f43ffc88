package sdk_test

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stratoscli/stratos/shared/contract/eventapi"
	"github.com/stratoscli/stratos/shared/toolchain/toolchaintest"
)

// The runtime's lines in events.jsonl (progress, child starts and ends),
// as the committed dist/ writes them, pass the event vocabulary's strict
// check: current version, known kinds, no field it does not define.
func TestProgressRecordLinesConform(t *testing.T) {
	tc := toolchaintest.Ensure(t)
	work := scratchPackage(t, tc)
	runDir := t.TempDir()
	script := `import { progressRecorder } from "./dist/progress-record.js";
const record = progressRecorder(process.argv[2], (message) => { throw new Error(message); });
const started = { parentExecutionId: "p", parentWorkflow: "parent", runId: "p" };
record({ type: "workflow.log", executionId: "p", workflow: "parent", details: { message: "hello" } });
record({ type: "workflow.phase", executionId: "p", workflow: "parent", details: { phase: "plan" }, phase: "review/plan" });
record({ type: "workflow.child.started", executionId: "c", workflow: "kid", details: started, phase: "review" });
record({ type: "workflow.child.completed", executionId: "c", workflow: "kid",
  details: { ...started, status: "failed", durationMs: 3, error: { code: "execution_failed", message: "boom" } } });
`
	if err := os.WriteFile(filepath.Join(work, "record.mjs"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := tc.NodeCommand(context.Background(), "record.mjs", runDir)
	cmd.Dir = work
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("node record.mjs: %v\n%s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(runDir, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	n, phased := 0, 0
	for sc := bufio.NewScanner(bytes.NewReader(b)); sc.Scan(); n++ {
		if err := eventapi.Check(sc.Bytes()); err != nil {
			t.Errorf("%s: %v", sc.Bytes(), err)
		}
		if e, err := eventapi.Decode(sc.Bytes()); err == nil && e.Phase != "" {
			phased++
		}
	}
	if phased != 2 {
		t.Errorf("%d lines carry their phase, want the phase's and the child start's:\n%s", phased, b)
	}
	if n != 4 {
		t.Fatalf("%d lines recorded, want 4:\n%s", n, b)
	}
}
