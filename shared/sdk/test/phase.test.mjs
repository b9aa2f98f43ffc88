// Phases: which phase each flow of an invocation runs in, as agent executes
// and child workflows read it (ExecutionContext.phase), and the
// workflow.phase lines phase() records.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createChildWorkflow } from "../dist/child.js";
import { ExecutionContext } from "../dist/context.js";
import { phase } from "../dist/progress.js";

const kidEntry = join(import.meta.dirname, "fixtures", "kid.mjs");
const table = {
  parent: { dir: "/root/parent", entry: "/root/parent/dist/w.js", built: true, references: ["kid"], config: {} },
  kid: { dir: "/root/kid", entry: kidEntry, built: true, references: [], config: {} },
};

// inParent runs fn inside a running "parent" invocation, whose context it
// passes; the runtime's events go to recorded.
async function inParent(fn, recorded = []) {
  const host = { rootDir: "/root", workflows: table, warn() {}, progress: (e) => recorded.push(e) };
  const ctx = new ExecutionContext({ executionId: "p-1", workflow: "parent", config: { agents: {}, decision: {} }, overrides: {}, host });
  try {
    return await ctx.run(() => fn(ctx));
  } finally {
    await ctx.close(undefined);
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe("phase", () => {
  it("is none until phase(name), which holds for the calls after it", async () => {
    const recorded = [];
    const seen = await inParent(async (ctx) => {
      const before = ctx.phase();
      phase("plan");
      await tick();
      const plan = ctx.phase();
      phase("fix");
      return [before, plan, ctx.phase()];
    }, recorded);
    assert.deepEqual(seen, ["", "plan", "fix"]);
    assert.deepEqual(recorded.map((e) => [e.type, e.details.phase, e.phase]), [["workflow.phase", "plan", "plan"], ["workflow.phase", "fix", "fix"]]);
  });

  it("with fn, holds for fn only, resolves with its result and nests", async () => {
    const recorded = [];
    const seen = await inParent(async (ctx) => {
      const inner = await phase("review", async () => {
        await tick();
        const review = ctx.phase();
        const fix = await phase("fix", () => ctx.phase());
        phase("verify");
        return [review, fix, ctx.phase()];
      });
      return [...inner, ctx.phase()];
    }, recorded);
    assert.deepEqual(seen, ["review", "review/fix", "review/verify", ""]);
    assert.deepEqual(recorded.map((e) => e.phase), ["review", "review/fix", "review/verify"]);
  });

  it("with fn, does not nest in a phase(name) marker, which holds again after it", async () => {
    const seen = await inParent(async (ctx) => {
      phase("plan");
      const review = await phase("review", async () => [ctx.phase(), await phase("a", () => ctx.phase())]);
      return [...review, ctx.phase()];
    });
    assert.deepEqual(seen, ["review", "review/a", "plan"]);
  });

  it("keeps concurrent branches apart, each in its own phase", async () => {
    const seen = await inParent(async (ctx) => {
      const branch = (name, waits) =>
        phase(name, async () => {
          const at = [];
          for (let i = 0; i < waits; i++) {
            await tick();
            at.push(ctx.phase());
          }
          return at;
        });
      return Promise.all([branch("a", 3), branch("b", 2), (async () => { await tick(); return [ctx.phase()]; })()]);
    });
    assert.deepEqual(seen, [["a", "a", "a"], ["b", "b"], [""]]);
  });

  it("rejects with fn's error and leaves the caller's phase as it was", async () => {
    const seen = await inParent(async (ctx) => {
      phase("outer");
      await assert.rejects(phase("inner", () => { throw new Error("boom"); }), /boom/);
      return ctx.phase();
    });
    assert.equal(seen, "outer");
  });

  it("puts the parent's phase on a child's start and end, not on the child's own calls", async () => {
    const recorded = [];
    const kid = createChildWorkflow({ name: "kid", dir: "kid", entry: "kid/dist/kid/workflow.js" });
    await inParent(() => phase("draft", () => kid.execute({ text: "hi" })), recorded);
    const child = recorded.filter((e) => e.type.startsWith("workflow.child."));
    assert.deepEqual(child.map((e) => [e.type, e.phase]), [["workflow.child.started", "draft"], ["workflow.child.completed", "draft"]]);
  });
});
