// Reads the usage events the agent host appends to the run's events.jsonl,
// from where the last read stopped, for budget.spent(). @internal
import { closeSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import type { BudgetLimits, BudgetSource, BudgetSpent } from "./budget.js";

/** @internal */
export function usageMeter(runDir: string | undefined, limits: BudgetLimits): BudgetSource {
  const total: BudgetSpent = { tokens: 0, usd: 0, turns: 0, unknownCostTurns: 0 };
  let offset = 0;
  let partial = "";
  const read = (): void => {
    if (runDir === undefined) {
      return;
    }
    let fd: number;
    try {
      fd = openSync(join(runDir, "events.jsonl"), "r");
    } catch {
      return; // no events yet
    }
    try {
      const buf = Buffer.alloc(64 * 1024);
      for (;;) {
        const n = readSync(fd, buf, 0, buf.length, offset);
        if (n === 0) {
          break;
        }
        offset += n;
        partial += buf.toString("utf8", 0, n);
        const lines = partial.split("\n");
        partial = lines.pop() ?? ""; // a line still being written
        lines.forEach(add);
      }
    } finally {
      closeSync(fd);
    }
  };
  const add = (line: string): void => {
    let e: { type?: string; details?: Record<string, unknown> };
    try {
      e = JSON.parse(line);
    } catch {
      return;
    }
    if (e.type !== "usage" || e.details === undefined) {
      return;
    }
    const d = e.details;
    const n = (k: string): number => (typeof d[k] === "number" ? (d[k] as number) : 0);
    total.tokens += n("inputTokens") + n("outputTokens") + n("cacheReadInputTokens") + n("cacheCreationInputTokens");
    total.turns++;
    if (typeof d.costUsd === "number") {
      total.usd = Math.round((total.usd + d.costUsd) * 1e10) / 1e10;
    } else {
      total.unknownCostTurns++;
    }
  };
  return {
    limits: Object.freeze({ ...limits }),
    spent() {
      read();
      return { ...total };
    },
  };
}
