// An agent's cancellation as the agent host sees it: agent.cancel names the
// running call, and says "orphaned" only when the run is cancelled because
// its stratos run is gone (an engine that hands the run's calls to the
// code's next attempt then leaves them running).
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { createAgent } from "../dist/index.js";
import { ExecutionContext } from "../dist/context.js";
import { CancelledError, orphanedCancellation } from "../dist/errors.js";

let dir;
let log;

before(() => {
  dir = mkdtempSync(join(tmpdir(), "sdk-agent-cancel-"));
  log = join(dir, "host.jsonl");
  const host = join(dir, "stratos-agent");
  writeFileSync(host, `#!/bin/sh\nexec '${process.execPath}' '${join(import.meta.dirname, "fixtures", "recording-host.mjs")}'\n`);
  chmodSync(host, 0o755);
  process.env.STRATOS_AGENT_BIN = host;
  process.env.RECORDING_HOST_LOG = log;
});

after(() => rmSync(dir, { recursive: true, force: true }));

function received(method) {
  let text = "";
  try {
    text = readFileSync(log, "utf8");
  } catch {
    // nothing received yet
  }
  return text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l)).filter((m) => m.method === method);
}

// cancelRunning starts an execute in a fresh invocation, cancels the
// invocation with reason once the host holds the execute, and returns the
// agent.cancel the host then received.
async function cancelRunning(id, reason) {
  const ctx = new ExecutionContext({ executionId: id, workflow: "w", config: { agents: {}, decision: {} }, overrides: {}, host: { rootDir: dir, workflows: { w: { dir, entry: join(dir, "w.js"), built: true, references: [], config: {} } }, warn() {} } });
  try {
    await ctx
      .run(async () => {
        const agent = createAgent({ harness: "test" });
        const call = agent.execute("hello");
        while (!received("agent.execute").some((m) => m.params.executionId === id)) {
          await sleep(10);
        }
        ctx.cancel(reason);
        await assert.rejects(call);
      })
      .catch(() => {});
  } finally {
    await ctx.close(undefined);
  }
  const cancels = received("agent.cancel");
  const execute = received("agent.execute").find((m) => m.params.executionId === id);
  return cancels.find((m) => m.params.agentId === execute.params.agentId);
}

describe("agent.cancel", () => {
  it("of a cancelled run names the call, and is not orphaned", async () => {
    const c = await cancelRunning("run-cancelled", new CancelledError("the run was interrupted (SIGINT)"));
    assert.equal(c.params.call, 1);
    assert.equal(c.params.orphaned, undefined);
  });

  it("of a run whose stratos run is gone says orphaned", async () => {
    const c = await cancelRunning("run-orphaned", orphanedCancellation("stratos run went away: the run was cancelled"));
    assert.equal(c.params.call, 1);
    assert.equal(c.params.orphaned, true);
  });
});
