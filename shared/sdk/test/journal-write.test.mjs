// The journal's writer: lines queued while a write is under way go out in
// the next, in order, and flush resolves once all are written.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Journal } from "../dist/journal.js";

describe("the journal's writer", () => {
  it("writes every entry in order by the time flush resolves", async () => {
    const dir = mkdtempSync(join(tmpdir(), "journal-"));
    const warnings = [];
    const journal = new Journal(dir, (m) => warnings.push(m));
    const b = journal.bindAgent("w", "echo", "", "h");
    for (let call = 1; call <= 200; call++) {
      journal.recordExecute(b, call, `h${call}`, { text: `reply ${call}` });
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
    assert.deepEqual(warnings, []);
  });

  it("warns once and goes on when the journal cannot be written", async () => {
    const warnings = [];
    const journal = new Journal(join(tmpdir(), "no-such-dir-" + process.pid, "x"), (m) => warnings.push(m));
    const b = journal.bindAgent("w", "echo", "", "h");
    journal.recordExecute(b, 1, "h1", { text: "a" });
    journal.recordExecute(b, 2, "h2", { text: "b" });
    await journal.flush();
    assert.equal(warnings.length, 1);
  });
});
