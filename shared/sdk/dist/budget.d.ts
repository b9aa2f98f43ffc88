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
/** The run's budget: its limits, what was spent, what remains. */
export declare const budget: {
    /** The run's limits (workflow.yaml's budget, or the flags of stratos run). */
    limits(): BudgetLimits;
    /** What the run's agents have spent so far. */
    spent(): BudgetSpent;
    /**
     * What is left of each limit (never below 0); a field the budget does
     * not limit is absent.
     */
    remaining(): BudgetLimits;
};
