// An execute's journal line for a text result is written without building
// its entry first: it must be the entry's JSON, key for key, or journals
// would read differently depending on which path wrote them.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { executeEntry, executeLine } from "../dist/journal.js";

const bindings = [
  { path: "w", configId: "", label: "", agent: 1, replaying: false, replayed: 0 },
  { path: "w/child#2", configId: "reviewer", label: "", agent: 3, replaying: false, replayed: 0 },
  { path: 'w/"odd"\nname#1', configId: "c\u2028", label: "first \ud800 lone", agent: 12, replaying: false, replayed: 0 },
];
const results = [
  { text: "" },
  { text: "plain reply" },
  { text: 'quotes " and \\ and \n newlines, \u0000 and emoji 🚀' },
  { text: "with usage", usage: { tokens: 120, usd: 0.0012, turns: 1, unknownCostTurns: 0 } },
  { text: "with all", usage: { tokens: 1, usd: 0, turns: 1, unknownCostTurns: 1 }, session: { harness: "claude", id: "abc" }, prompt: "the prompt\twith a tab" },
  { text: undefined, usage: undefined, session: undefined, prompt: undefined },
];

describe("an execute's journal line", () => {
  it("is the JSON of the execute's entry", () => {
    const at = Date.UTC(2026, 11, 7, 16, 30, 0, 123);
    for (const b of bindings) {
      for (const [i, r] of results.entries()) {
        const hash = `${i}`.repeat(64);
        assert.equal(executeLine(at, b, i + 1, hash, r), JSON.stringify(executeEntry(at, b, i + 1, hash, r)) + "\n", `binding ${b.path}, result ${i}`);
      }
    }
  });
});
