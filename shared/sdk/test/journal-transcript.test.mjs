// The journal's side of continuing a conversation by transcript: the
// replayed executes of an agent object whose prompts the journal kept
// become the exchanges its first real execute sends the agent host.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { ExecuteRecord, Journal, inputHash } from "../dist/journal.js";

const record = (call) => new ExecuteRecord(call, () => inputHash(`call ${call}`));

function execute(call, fields) {
  return { v: 1, kind: "agent.execute", at: "2026-12-07T00:00:00Z", path: "w", inputSha256: inputHash(`call ${call}`), execute: { configId: "talker", agent: 1, call, session: { harness: "gemini", id: "s1" }, ...fields } };
}

describe("the journal's transcript", () => {
  it("collects the replayed exchanges with kept prompts, in order, a value as its JSON", () => {
    const journal = new Journal(undefined, () => {}, {
      from: "earlier",
      entries: [
        execute(1, { prompt: "[hello] hi", text: "hello back" }),
        execute(2, { prompt: "[judge] it", value: { approved: true } }),
        execute(3, { prompt: "[fail] it", error: { code: "execution", message: "crashed" } }),
      ],
    });
    const b = journal.bindAgent("w", "talker", "", record(1));
    for (const call of [1, 2]) {
      assert.ok(journal.replayExecute(b, record(call)));
    }
    // A failed call is not replayed, so it is not part of the transcript.
    assert.equal(journal.replayExecute(b, record(3)), undefined);
    assert.deepEqual(b.transcript, [
      { call: 1, prompt: "[hello] hi", reply: "hello back" },
      { call: 2, prompt: "[judge] it", reply: '{"approved":true}' },
    ]);
    assert.deepEqual(b.session, { harness: "gemini", id: "s1" });
  });

  it("has none when the journal kept no prompts (a harness that continues sessions itself)", () => {
    const journal = new Journal(undefined, () => {}, { from: "earlier", entries: [execute(1, { text: "hello back" })] });
    const b = journal.bindAgent("w", "talker", "", record(1));
    assert.ok(journal.replayExecute(b, record(1)));
    assert.equal(b.transcript, undefined);
    assert.equal(b.replayed, 1);
  });
});
