/** The event types progress is recorded as in the run's events.jsonl. */
export type ProgressType = "workflow.log" | "workflow.phase";
/**
 * Records a progress message of the current workflow execution: in the
 * run's events (type `workflow.log`) and, in a foreground run, on stderr.
 * Throws NoExecutionContextError outside a workflow execution.
 */
export declare function log(message: string): void;
/**
 * Records that the current workflow execution enters the phase `name`
 * (type `workflow.phase`): a coarser step than log, e.g. "plan", "fix",
 * "verify". The agent executes and child workflows started after it, in
 * the same flow, carry the phase on their events until the next phase(),
 * and `stratos runs show` and `stratos serve` group agents by it.
 *
 * With `fn`, the phase holds for fn only, and for everything fn starts,
 * however it runs alongside other code: `await phase("review", async () =>
 * ...)` resolves with fn's result. Use this form in concurrent branches
 * (`parallel`, `Promise.all`): phase(name) alone changes the phase of every
 * branch of the same scope. Phases nest: inside phase("review", fn), a call
 * runs in "review", and phase("fix") or phase("fix", fn2) there gives
 * "review/fix". phase(name, fn) does not nest in a phase(name) before it
 * (after phase("plan"), phase("review", fn) runs fn in "review", and the
 * calls after it are in "plan" again). A child workflow starts outside any
 * phase of its own; `stratos runs show` puts its phases under the parent's.
 * Throws NoExecutionContextError outside a workflow execution.
 */
export declare function phase(name: string): void;
export declare function phase<T>(name: string, fn: () => T | Promise<T>): Promise<T>;
