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
 * "verify". Throws NoExecutionContextError outside a workflow execution.
 */
export declare function phase(name: string): void;
