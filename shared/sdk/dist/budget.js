// The run's budget as workflow code sees it: what its agents have spent so
// far and what is left, so that a workflow can scale its own work (fewer
// reviewers, a cheaper model) before stratos run cancels it for crossing
// the budget. The figures come from the usage events in the run's record,
// the same ones stratos run adds up.
import { getContext } from "./context.js";
/** The run's budget: its limits, what was spent, what remains. */
export const budget = {
    /** The run's limits (workflow.yaml's budget, or the flags of stratos run). */
    limits() {
        return { ...source("budget.limits()").limits };
    },
    /** What the run's agents have spent so far. */
    spent() {
        return source("budget.spent()").spent();
    },
    /**
     * What is left of each limit (never below 0); a field the budget does
     * not limit is absent.
     */
    remaining() {
        const s = source("budget.remaining()");
        const spent = s.spent();
        const left = {};
        if (s.limits.tokens !== undefined) {
            left.tokens = Math.max(0, s.limits.tokens - spent.tokens);
        }
        if (s.limits.usd !== undefined) {
            left.usd = Math.max(0, Math.round((s.limits.usd - spent.usd) * 1e10) / 1e10);
        }
        return left;
    },
};
// source is the run's budget as the calling invocation reads it: each
// reading of what was spent is journalled, and answered from the journal
// on resume, so that code branching on it takes the way it took before.
function source(primitive) {
    const ctx = getContext(primitive);
    const s = ctx.host.budget ?? { limits: {}, spent: () => ({ tokens: 0, usd: 0, turns: 0, unknownCostTurns: 0 }) };
    const journal = ctx.host.journal;
    if (journal === undefined) {
        return s;
    }
    return { limits: s.limits, spent: () => journal.readBudget(ctx, () => s.spent()) };
}
