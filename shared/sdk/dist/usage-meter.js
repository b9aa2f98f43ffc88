// Reads the usage events the agent host appends to the run's events.jsonl,
// from where the last read stopped, for budget.spent(). @internal
import { closeSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
// count is a token count of a usage line, 0 when the line lacks it.
const count = (n) => (typeof n === "number" ? n : 0);
/** @internal */
export function usageMeter(runDir, limits, carried) {
    // A resumed run starts from what the executions it resumes spent.
    const total = { tokens: carried?.tokens ?? 0, usd: carried?.usd ?? 0, turns: carried?.turns ?? 0, unknownCostTurns: carried?.unknownCostTurns ?? 0 };
    let offset = 0;
    let partial = "";
    const read = () => {
        if (runDir === undefined) {
            return;
        }
        let fd;
        try {
            fd = openSync(join(runDir, "events.jsonl"), "r");
        }
        catch {
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
        }
        finally {
            closeSync(fd);
        }
    };
    // One line of events.jsonl. Usage details are spelled alike in every
    // vocabulary version (tokens by kind, costUsd), so lines written before
    // the version existed count as they are; a count a line lacks is 0.
    const add = (line) => {
        let e;
        try {
            e = JSON.parse(line);
        }
        catch {
            return;
        }
        if (e?.type !== "usage" || e.details === undefined) {
            return;
        }
        const d = e.details;
        total.tokens += count(d.inputTokens) + count(d.outputTokens) + count(d.cacheReadInputTokens) + count(d.cacheCreationInputTokens);
        total.turns++;
        if (typeof d.costUsd === "number") {
            total.usd = Math.round((total.usd + d.costUsd) * 1e10) / 1e10;
        }
        else {
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
