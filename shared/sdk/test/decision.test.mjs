// Decisions on the SDK's side: pure builders, decision() outside an
// execution, the typed errors, and the journal's decision places.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  choice,
  decision,
  score,
  verdict,
  isSdkError,
  isExecutionFailure,
  NoExecutionContextError,
  DecisionError,
  DecisionInvalidAnswerError,
  DecisionConfigurationError,
} from "../dist/index.js";
import { decisionErrorFor } from "../dist/decision-errors.js";
import { Journal, inputHash } from "../dist/journal.js";

describe("question builders", () => {
  it("return frozen plain questions that compare and serialise", () => {
    const a = choice("Which color?", ["red", "blue"]);
    assert.deepEqual(a, { kind: "choice", prompt: "Which color?", options: ["red", "blue"] });
    assert.deepEqual(a, choice("Which color?", ["red", "blue"]));
    assert.equal(JSON.stringify(a), '{"kind":"choice","prompt":"Which color?","options":["red","blue"]}');
    assert.ok(Object.isFrozen(a) && Object.isFrozen(a.options));
    assert.deepEqual(score("How good?", { min: 1, max: 10 }), { kind: "score", prompt: "How good?", min: 1, max: 10 });
    assert.deepEqual(score("How good?", { min: 0, max: 1, step: 0.25 }).step, 0.25);
    assert.deepEqual(verdict("Done?"), { kind: "verdict", prompt: "Done?" });
  });

  it("copy option objects, so later changes to the caller's do not leak in", () => {
    const fix = { id: "fix", description: "real" };
    const q = choice("What now?", [fix, { id: "skip" }]);
    fix.id = "changed";
    assert.equal(q.options[0].id, "fix");
    assert.ok(Object.isFrozen(q.options[0]));
  });

  it("refuse bad arguments at once with a TypeError", () => {
    for (const [build, why] of [
      [() => choice("", ["a", "b"]), /prompt must be a non-empty string/],
      [() => choice("x", ["a"]), /2 to 64 options/],
      [() => choice("x", ["a", "a"]), /option "a" is given twice/],
      [() => choice("x", ["a", { id: "" }]), /option 1 must be/],
      [() => choice("x", ["a", { id: "b", description: 3 }]), /description of option "b"/],
      [() => score("x", { min: 3, max: 3 }), /min < max/],
      [() => score("x", { min: 0, max: 1, step: 2 }), /step must be/],
      [() => verdict("  "), /prompt must be/],
    ]) {
      assert.throws(build, (err) => err instanceof TypeError && why.test(err.message));
    }
  });
});

describe("decision()", () => {
  it("throws NoExecutionContextError outside a running workflow", async () => {
    await assert.rejects(decision(verdict("Done?")), (err) => err instanceof NoExecutionContextError && /decision\(\) must be called inside a running workflow/.test(err.message));
  });
});

describe("decision errors", () => {
  it("are the SDK's, with their code and the decision's ID", () => {
    const err = decisionErrorFor("decision_invalid_answer", "run/decision-2", "the model's answer is invalid", { attempts: [] });
    assert.ok(err instanceof DecisionInvalidAnswerError && err instanceof DecisionError && isSdkError(err));
    assert.equal(err.name, "DecisionInvalidAnswerError");
    assert.equal(err.code, "decision_invalid_answer");
    assert.equal(err.decisionId, "run/decision-2");
    assert.deepEqual(err.details, { decisionId: "run/decision-2", attempts: [] });
    assert.equal(decisionErrorFor("execution", "x", "m", {}), undefined);
  });

  it("count as an execution failure only for an invalid answer", () => {
    assert.ok(isExecutionFailure(new DecisionInvalidAnswerError("d", "m")));
    assert.ok(!isExecutionFailure(new DecisionConfigurationError("d", "m")));
  });
});

describe("the journal's decisions", () => {
  const result = (answer) => ({ answer, confidence: 1, basis: "agreement", samples: 1, provider: "ollama", model: "m", endpoint: "e", usage: { tokens: 10, usd: 0, turns: 1, unknownCostTurns: 1 } });
  const entry = (k, hash, decision) => ({ v: 1, kind: "decision.call", at: "2026-12-01T00:00:00Z", path: "w", inputSha256: hash, decision: { k, ...decision } });

  it("answer a decision by its input, as a multiset, and only with an answer", () => {
    const [red, blue, failed] = [inputHash({ q: "red" }), inputHash({ q: "blue" }), inputHash({ q: "failed" })];
    const journal = new Journal(undefined, () => {}, {
      from: "earlier",
      entries: [
        entry(1, red, { result: result("red") }),
        entry(2, blue, { result: result("blue") }),
        entry(3, failed, { error: { code: "decision_timeout", message: "slow" } }),
      ],
    });
    // Asked in another order than journalled: each finds its own.
    const b = journal.placeDecision("w", blue);
    const r = journal.placeDecision("w", red);
    assert.deepEqual([b.k, b.replayed?.decision?.result?.answer], [2, "blue"]);
    assert.deepEqual([r.k, r.replayed?.decision?.result?.answer], [1, "red"]);
    // A failure fixes the place and is asked again.
    const f = journal.placeDecision("w", failed);
    assert.deepEqual([f.k, f.replayed], [3, undefined]);
    // A second ask of an answered question is a new decision.
    const again = journal.placeDecision("w", red);
    assert.deepEqual([again.k, again.replayed], [4, undefined]);
    assert.equal(journal.replayedCalls(), 2);
    assert.deepEqual(journal.replayedUsage(), { tokens: 20, usd: 0, turns: 2, unknownCostTurns: 2 });
    assert.deepEqual(journal.divergences(), []);
  });

  it("report a decision whose input changed as a divergence", () => {
    const journal = new Journal(undefined, () => {}, { from: "earlier", entries: [entry(1, inputHash("a"), { result: result("red") })] });
    const p = journal.placeDecision("w", inputHash("b"));
    assert.equal(p.replayed, undefined);
    assert.deepEqual(journal.divergences(), [{ path: "w", call: "a decision", reason: "its question or configuration differs from every journalled decision of this invocation" }]);
  });
});
