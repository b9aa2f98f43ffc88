// budget.spent() counts the usage events of the run's events.jsonl: lines
// of every vocabulary version, kept from real runs (fixtures/usage-v0-v1.jsonl:
// three turns, each in version 0 — no "v" — and as version 1 writes it).
import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { usageMeter } from "../dist/usage-meter.js";

const usageLines = readFileSync(join(import.meta.dirname, "fixtures", "usage-v0-v1.jsonl"), "utf8");

describe("usageMeter", () => {
  it("counts the usage lines of every version alike", () => {
    const dir = mkdtempSync(join(tmpdir(), "usage-meter-"));
    const other = JSON.stringify({ v: 1, type: "model.completed", timestamp: "t", executionId: "x", details: { usage: { inputTokens: 999, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, reasoningOutputTokens: 0 } } });
    writeFileSync(join(dir, "events.jsonl"), usageLines + other + "\nnull\nnot json\n");
    const meter = usageMeter(dir, { usd: 1 });
    // Claude Code's reported $0.00075, Codex's and OpenCode's priced
    // $0.000225, 110 tokens each; twice, once per version.
    assert.deepEqual(meter.spent(), { tokens: 660, usd: 0.0024, turns: 6, unknownCostTurns: 0 });
    appendFileSync(join(dir, "events.jsonl"), JSON.stringify({ type: "usage", details: { inputTokens: 5 } }) + "\n");
    assert.deepEqual(meter.spent(), { tokens: 665, usd: 0.0024, turns: 7, unknownCostTurns: 1 });
  });
});
