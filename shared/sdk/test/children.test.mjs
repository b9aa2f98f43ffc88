// Child workflows: createChildWorkflow's checks, and execute() reaching only
// children the calling workflow references, built, and not already running.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createChildWorkflow } from "../dist/child.js";
import { ExecutionContext } from "../dist/context.js";
import { ChildWorkflowError, NoExecutionContextError, WorkflowCycleError, WorkflowNotBuiltError, WorkflowNotReferencedError } from "../dist/errors.js";

const kidEntry = join(import.meta.dirname, "fixtures", "kid.mjs");

function host(workflows, recorded) {
  return { rootDir: "/root", workflows, warn() {}, progress: recorded ? (e) => recorded.push(e) : undefined };
}

const table = {
  parent: { dir: "/root/parent", entry: "/root/parent/dist/w.js", built: true, references: ["kid", "stale", "parent"], config: {} },
  kid: { dir: "/root/kid", entry: kidEntry, built: true, references: [], config: { agents: { writer: { model: "own" } }, decision: { budget: 1 } } },
  stale: { dir: "/root/stale", entry: kidEntry, built: false, references: [], config: {} },
  other: { dir: "/root/other", entry: kidEntry, built: true, references: [], config: {} },
};

// inParent runs fn inside a running "parent" invocation; the events the
// runtime records go to recorded, when given.
async function inParent(fn, recorded) {
  const ctx = new ExecutionContext({ executionId: "p-1", workflow: "parent", config: { agents: {}, decision: {} }, overrides: {}, host: host(table, recorded) });
  try {
    return await ctx.run(fn);
  } finally {
    await ctx.close(undefined);
  }
}

const ref = (name) => ({ name, dir: name, entry: `${name}/dist/${name}/workflow.js` });

describe("createChildWorkflow", () => {
  it("rejects an incomplete reference", () => {
    assert.throws(() => createChildWorkflow({ name: "", dir: "d", entry: "e" }), { name: "TypeError", message: "createChildWorkflow(): reference.name must be a non-empty string" });
    assert.throws(() => createChildWorkflow({ name: "n", dir: "d" }), /reference\.entry must be a non-empty string/);
  });

  it("rejects malformed overrides", () => {
    assert.throws(() => createChildWorkflow(ref("kid"), { overrides: { model: "x" } }), /overrides of workflow "kid": unknown field "model"/);
  });

  it("runs nothing outside a running workflow", async () => {
    await assert.rejects(createChildWorkflow(ref("kid")).execute({ text: "x" }), NoExecutionContextError);
  });
});

describe("execute", () => {
  it("runs a referenced child with its own configuration and the bound overrides", async () => {
    const overrides = { agents: { writer: { effort: "max" } } };
    const kid = createChildWorkflow(ref("kid"), { overrides });
    overrides.agents.writer.effort = "changed later"; // bound at creation
    const out = await inParent(() => kid.execute({ text: "hi" }));
    assert.deepEqual(out, { text: "HI", config: { agents: { writer: { model: "own", effort: "max" } }, decision: { budget: 1 } }, parents: ["parent"] });
  });

  it("refuses a child the caller does not reference, whatever its build", async () => {
    await assert.rejects(inParent(() => createChildWorkflow(ref("other")).execute({ text: "x" })), (err) => {
      assert.ok(err instanceof WorkflowNotReferencedError);
      assert.equal(err.code, "workflow_not_referenced");
      assert.deepEqual(err.details, { child: "other", caller: "parent" });
      return true;
    });
  });

  it("refuses a referenced child that is not built", async () => {
    await assert.rejects(inParent(() => createChildWorkflow(ref("stale")).execute({ text: "x" })), WorkflowNotBuiltError);
  });

  it("refuses to re-enter a running ancestor", async () => {
    await assert.rejects(inParent(() => createChildWorkflow(ref("parent")).execute({})), (err) => {
      assert.ok(err instanceof WorkflowCycleError);
      assert.deepEqual(err.cycle, ["parent", "parent"]);
      return true;
    });
  });

  it("records the child's start and end, naming its parent and the run", async () => {
    const recorded = [];
    await inParent(() => createChildWorkflow(ref("kid")).execute({ text: "a" }), recorded);
    assert.equal(recorded.length, 2);
    const [started, completed] = recorded;
    assert.equal(started.type, "workflow.child.started");
    assert.equal(started.workflow, "kid");
    assert.match(started.executionId, /^[0-9]{8}T[0-9]{6}Z-[0-9a-f]{8}$/);
    assert.deepEqual(started.details, { parentExecutionId: "p-1", parentWorkflow: "parent", runId: "p-1" });
    assert.equal(completed.type, "workflow.child.completed");
    assert.equal(completed.workflow, "kid");
    assert.equal(completed.executionId, started.executionId);
    const { durationMs, ...rest } = completed.details;
    assert.ok(Number.isInteger(durationMs) && durationMs >= 0, `durationMs ${durationMs}`);
    assert.deepEqual(rest, { parentExecutionId: "p-1", parentWorkflow: "parent", runId: "p-1", status: "succeeded" });
  });

  it("names the top-level invocation as the run of a grandchild", async () => {
    const recorded = [];
    const top = new ExecutionContext({ executionId: "top-1", workflow: "top", config: { agents: {}, decision: {} }, overrides: {}, host: host(table, recorded) });
    const mid = new ExecutionContext({ executionId: "p-2", workflow: "parent", config: { agents: {}, decision: {} }, overrides: {}, host: top.host, parent: top });
    try {
      await mid.run(() => createChildWorkflow(ref("kid")).execute({ text: "a" }));
    } finally {
      await mid.close(undefined);
      await top.close(undefined);
    }
    assert.deepEqual(
      recorded.map((e) => [e.type, e.details.parentExecutionId, e.details.runId]),
      [
        ["workflow.child.started", "p-2", "top-1"],
        ["workflow.child.completed", "p-2", "top-1"],
      ],
    );
  });

  it("records the start and the failure of a child that fails", async () => {
    const recorded = [];
    await assert.rejects(inParent(() => createChildWorkflow(ref("kid")).execute({ text: 1 }), recorded), ChildWorkflowError);
    assert.deepEqual(recorded.map((e) => [e.type, e.workflow]), [["workflow.child.started", "kid"], ["workflow.child.completed", "kid"]]);
    const { status, error } = recorded[1].details;
    assert.equal(status, "failed");
    assert.equal(error.code, "input_validation");
  });

  it("records a cancelled child as cancelled", async () => {
    const recorded = [];
    const parent = new ExecutionContext({ executionId: "p-3", workflow: "parent", config: { agents: {}, decision: {} }, overrides: {}, host: host(table, recorded) });
    const running = parent.run(() => createChildWorkflow(ref("kid")).execute({ text: "a" }));
    parent.cancel(new Error("stop"));
    await assert.rejects(running);
    await parent.close(undefined);
    assert.deepEqual(
      recorded.map((e) => [e.type, e.details.status]),
      [
        ["workflow.child.started", undefined],
        ["workflow.child.completed", "cancelled"],
      ],
    );
  });

  it("wraps the child's own failure in ChildWorkflowError", async () => {
    await assert.rejects(inParent(() => createChildWorkflow(ref("kid")).execute({ text: 1 })), (err) => {
      assert.ok(err instanceof ChildWorkflowError);
      assert.equal(err.cause.code, "input_validation");
      return true;
    });
  });
});
