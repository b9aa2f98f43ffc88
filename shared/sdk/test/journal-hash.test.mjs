// The journal's input hash: the text it hashes is the canonical JSON that
// JSON.stringify writes with object keys sorted, whichever way the runtime
// writes it, so that journals written by earlier versions resume alike.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { executeInputHash, inputHash } from "../dist/journal.js";

// reference is the hash as the first journal format defined it.
function reference(value) {
  const text = JSON.stringify(value, (_key, v) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) {
      return v;
    }
    const sorted = {};
    for (const k of Object.keys(v).sort()) {
      sorted[k] = v[k];
    }
    return sorted;
  });
  return createHash("sha256").update(text ?? "null").digest("hex");
}

class Point {
  constructor() {
    this.y = 2;
    this.x = 1;
  }
}

const values = [
  undefined,
  null,
  "",
  "a \"quoted\" \u2028 line\n",
  0,
  -0,
  1.5e21,
  NaN,
  Infinity,
  true,
  false,
  [],
  [1, undefined, () => 1, Symbol("s"), null, "x"],
  {},
  { b: 1, a: 2, c: undefined, d: () => 1, e: Symbol("s") },
  { settings: "f".repeat(64), call: 3, prompt: "ping 3", templateVariables: undefined },
  { settings: "f".repeat(64), call: 1, prompt: { file: "p.md" }, templateVariables: { z: [1, { y: 2, x: [3] }], a: "b" } },
  { 10: "ten", 9: "nine", a: "a", "01": "zero-one" },
  JSON.parse('{"__proto__": {"x": 1}, "a": 2}'),
  Object.assign(Object.create(null), { b: 1, a: 2 }),
  { when: new Date(0), nested: { toJSON: () => ({ b: 1, a: 2 }) } },
  { point: new Point(), map: new Map([["a", 1]]), boxed: new String("ab") },
  { deep: { deeper: { deepest: [{ b: [], a: {} }] } } },
  { "": 1, "é": 2, e: 3, E: 4 },
];

describe("the journal's input hash", () => {
  it("is the reference hash for every kind of value", () => {
    for (const v of values) {
      assert.equal(inputHash(v), reference(v), `value ${String(JSON.stringify(v))}`);
    }
  });

  it("is the reference hash for random nested values", () => {
    let seed = 42;
    const rand = (n) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const gen = (depth) => {
      switch (rand(depth > 3 ? 4 : 7)) {
        case 0:
          return rand(1000) - 500;
        case 1:
          return "s" + rand(100);
        case 2:
          return rand(2) === 0;
        case 3:
          return null;
        case 4:
          return Array.from({ length: rand(4) }, () => gen(depth + 1));
        default: {
          const o = {};
          for (let i = rand(5); i > 0; i--) {
            o[["b", "a", "c", "10", "2", "zz", "A"][rand(7)]] = gen(depth + 1);
          }
          return o;
        }
      }
    };
    for (let i = 0; i < 500; i++) {
      const v = gen(0);
      assert.equal(inputHash(v), reference(v), JSON.stringify(v));
    }
  });

  it("of an execute, written without the object, is the reference hash of its object", () => {
    const settings = "f".repeat(64);
    const prompts = [undefined, "ping 3", "", "a \"quoted\" \u2028 line\n", { file: "p.md" }, { template: "t.hbs" }, { configId: "review" }, { b: 1, a: 2 }, () => 1, new Point()];
    const variables = [undefined, {}, { z: [1, { y: 2, x: [3] }], a: "b" }, { 10: "ten", a: undefined }, { when: new Date(0) }, JSON.parse('{"__proto__": {"x": 1}}'), [1, 2]];
    for (const prompt of prompts) {
      for (const templateVariables of variables) {
        for (const call of [1, 17]) {
          const value = { settings, call, prompt, templateVariables };
          assert.equal(executeInputHash(settings, call, prompt, templateVariables), reference(value), JSON.stringify(value));
          const promptSource = "e".repeat(64);
          const withSource = { ...value, promptSource };
          assert.equal(executeInputHash(settings, call, prompt, templateVariables, promptSource), reference(withSource), JSON.stringify(withSource));
        }
      }
    }
    assert.equal(executeInputHash(settings, 2, "hello"), inputHash({ settings, call: 2, prompt: "hello" }));
  });

  it("has not changed for an execute's input", () => {
    // A journal written before the hash was computed in one pass.
    assert.equal(inputHash({ settings: "s", call: 1, prompt: "hello" }), reference({ call: 1, prompt: "hello", settings: "s" }));
    assert.equal(inputHash({ settings: "s", call: 1, prompt: "hello" }), createHash("sha256").update('{"call":1,"prompt":"hello","settings":"s"}').digest("hex"));
    assert.equal(executeInputHash("s", 1, "hello", undefined), createHash("sha256").update('{"call":1,"prompt":"hello","settings":"s"}').digest("hex"));
  });
});
