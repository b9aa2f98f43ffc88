// The journal's writer: lines queued while a write is under way go out in
// the next, in order, and flush resolves once all are written.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ExecuteRecord, Journal, inputHash } from "../dist/journal.js";

const record = (call) => new ExecuteRecord(call, () => inputHash(`input ${call}`));

describe("the journal's writer", () => {
  it("writes every entry in order by the time flush resolves", async () => {
    const dir = mkdtempSync(join(tmpdir(), "journal-"));
    const warnings = [];
    const journal = new Journal(dir, (m) => warnings.push(m));
    const b = journal.bindAgent("w", "echo", "", record(1));
    for (let call = 1; call <= 200; call++) {
      journal.recordExecute(b, record(call), { text: `reply ${call}` });
      if (call % 7 === 0) {
        await new Promise((r) => setImmediate(r));
      }
    }
    await journal.flush();
    const lines = readFileSync(join(dir, "journal.jsonl"), "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(
      lines.map((e) => e.execute.call),
      Array.from({ length: 200 }, (_, i) => i + 1),
    );
    assert.equal(lines[41].execute.text, "reply 42");
    assert.equal(lines[41].inputSha256, inputHash("input 42"));
    assert.deepEqual(warnings, []);
  });

  // A text result's entry is built when the line is written, a value's
  // when the result is recorded: workflow code holds the value and may
  // change it before the line goes out.
  it("keeps a value as it was recorded, and a call's entry once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "journal-"));
    const journal = new Journal(dir, () => {});
    const b = journal.bindAgent("w", "judge", "", record(1));
    const value = { approved: true, notes: ["a"] };
    const first = record(1);
    journal.recordExecute(b, first, { value });
    value.approved = false;
    value.notes.push("changed by workflow code");
    // A failing onComplete after the result was recorded records nothing more.
    journal.recordExecute(b, first, undefined, Object.assign(new Error("hook failed"), { code: "hook_failed" }));
    journal.recordExecute(b, record(2), { text: "t", usage: { tokens: 3, usd: 0, turns: 1, unknownCostTurns: 0 } });
    await journal.flush();
    const lines = readFileSync(join(dir, "journal.jsonl"), "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(
      lines.map((e) => e.execute),
      [
        { agent: 1, call: 1, configId: "judge", value: { approved: true, notes: ["a"] } },
        { agent: 1, call: 2, configId: "judge", text: "t", usage: { tokens: 3, usd: 0, turns: 1, unknownCostTurns: 0 } },
      ],
    );
    assert.equal(lines[1].inputSha256, inputHash("input 2"));
  });

  it("warns once and goes on when the journal cannot be written", async () => {
    const warnings = [];
    const journal = new Journal(join(tmpdir(), "no-such-dir-" + process.pid, "x"), (m) => warnings.push(m));
    const b = journal.bindAgent("w", "echo", "", record(1));
    journal.recordExecute(b, record(1), { text: "a" });
    journal.recordExecute(b, record(2), { text: "b" });
    await journal.flush();
    assert.equal(warnings.length, 1);
  });
});
