// The run's budget as workflow code sees it: what its agents have spent so
// far and what is left, so that a workflow can scale its own work (fewer
// reviewers, a cheaper model) before stratos run cancels it for crossing
// the budget. The figures come from the usage events in the run's record,
// the same ones stratos run adds up.
import { getContext } from "./context.js";

/** What the run's agents have spent so far (every invocation of the run, children included). */
export interface BudgetSpent {
  /** Input, output, cache read and cache write tokens. */
  tokens: number;
  /** US dollars, summed over the turns whose harness reported a cost. */
  usd: number;
  /** Model turns counted. */
  turns: number;
  /** Turns whose harness reported no cost (their tokens count, their cost is unknown). */
  unknownCostTurns: number;
}

/** A run's limits; an absent field is not limited. */
export interface BudgetLimits {
  usd?: number;
  tokens?: number;
}

/** How the runtime reads spending. @internal */
export interface BudgetSource {
  readonly limits: BudgetLimits;
  spent(): BudgetSpent;
}

/** The run's budget: its limits, what was spent, what remains. */
export const budget = {
  /** The run's limits (workflow.yaml's budget, or the flags of stratos run). */
  limits(): BudgetLimits {
    return { ...source("budget.limits()").limits };
  },
  /** What the run's agents have spent so far. */
  spent(): BudgetSpent {
    return source("budget.spent()").spent();
  },
  /**
   * What is left of each limit (never below 0); a field the budget does
   * not limit is absent.
   */
  remaining(): BudgetLimits {
    const s = source("budget.remaining()");
    const spent = s.spent();
    const left: BudgetLimits = {};
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
function source(primitive: string): BudgetSource {
  const ctx = getContext(primitive);
  const s = ctx.host.budget ?? { limits: {}, spent: () => ({ tokens: 0, usd: 0, turns: 0, unknownCostTurns: 0 }) };
  const journal = ctx.host.journal;
  if (journal === undefined) {
    return s;
  }
  return { limits: s.limits, spent: () => journal.readBudget(ctx, () => s.spent()) };
}
