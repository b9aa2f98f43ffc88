// Configuration merging: a workflow's workflow.yaml sections with invocation
// overrides merged over them, per agent id and per field.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { overridesProblem, resolveConfig } from "../dist/config.js";

describe("resolveConfig", () => {
  const sections = {
    agents: { writer: { harness: "claude-code", model: "sonnet", effort: "low" }, reviewer: { model: "opus" }, bare: null },
    decision: { mode: "strict", budget: 3 },
  };

  it("merges overrides field by field, per agent id", () => {
    const config = resolveConfig(sections, { agents: { writer: { effort: "max" }, bare: { model: "haiku" } }, decision: { budget: 9 } }, "w/workflow.yaml");
    assert.deepEqual(config, {
      agents: {
        writer: { harness: "claude-code", model: "sonnet", effort: "max" },
        reviewer: { model: "opus" },
        bare: { model: "haiku" },
      },
      decision: { mode: "strict", budget: 9 },
    });
  });

  it("rejects overrides naming agent configurations the workflow does not declare", () => {
    assert.throws(
      () => resolveConfig(sections, { agents: { zed: {}, critic: {} } }, "w/workflow.yaml"),
      (err) => err.code === "config_invalid" && err.details.unknown.join() === "critic,zed" && err.details.known.join() === "bare,reviewer,writer",
    );
  });

  it("keeps a field an override leaves undefined", () => {
    const config = resolveConfig(sections, { agents: { writer: { model: undefined } } }, "w/workflow.yaml");
    assert.equal(config.agents.writer.model, "sonnet");
  });

  it("does not change the sections it merges", () => {
    const before = structuredClone(sections);
    resolveConfig(sections, { agents: { writer: { model: "other" } }, decision: { mode: "loose" } }, "w/workflow.yaml");
    assert.deepEqual(sections, before);
  });

  it("returns a frozen configuration", () => {
    const config = resolveConfig(sections, undefined, "w/workflow.yaml");
    assert.ok(Object.isFrozen(config) && Object.isFrozen(config.agents.writer) && Object.isFrozen(config.decision));
  });

  it("resolves absent sections to empty ones", () => {
    assert.deepEqual(resolveConfig(undefined, undefined, "w/workflow.yaml"), { agents: {}, decision: {} });
    assert.deepEqual(resolveConfig({ agents: null, decision: null }, {}, "w/workflow.yaml"), { agents: {}, decision: {} });
  });

  it("rejects malformed sections with config_invalid naming the file and field", () => {
    for (const [bad, field] of [
      [{ agents: ["a"] }, "agents"],
      [{ agents: { a: 1 } }, "agents"],
      [{ decision: "x" }, "decision"],
    ]) {
      assert.throws(
        () => resolveConfig(bad, undefined, "w/workflow.yaml"),
        (err) => err.code === "config_invalid" && err.details.field === field && err.message.startsWith("w/workflow.yaml: "),
      );
    }
  });
});

describe("overridesProblem", () => {
  const cases = [
    [undefined, ""],
    [null, ""],
    [{}, ""],
    [{ agents: { a: { model: "m" } }, decision: { x: 1 } }, ""],
    ["x", "must be an object with optional fields agents and decision"],
    [{ model: "x" }, 'unknown field "model" (allowed: agents, decision)'],
    [{ agents: [] }, '"agents" must be an object mapping agent configuration ids to objects'],
    [{ agents: { a: 1 } }, '"agents.a" must be an object of agent settings'],
    [{ decision: [] }, '"decision" must be an object'],
  ];
  for (const [value, want] of cases) {
    it(`${JSON.stringify(value)} → ${want === "" ? "fine" : want}`, () => {
      assert.equal(overridesProblem(value), want);
    });
  }
});
