import { type WorkflowOverrides } from "./config.js";
export type { AgentOverride, WorkflowOverrides } from "./config.js";
/** A configured child workflow: each execute(input) starts a fresh child invocation. */
export interface ChildWorkflow<I, O> {
    execute(input: I): Promise<O>;
}
/** Where a child workflow lives in the discovery root. */
export interface ChildWorkflowReference {
    /** The workflow's name from its workflow.yaml. */
    name: string;
    /** The workflow's directory, relative to the discovery root. */
    dir: string;
    /** The compiled entry, relative to the discovery root, e.g. "summarize/dist/summarize/workflow.js". */
    entry: string;
}
/** Options of {@link createChildWorkflow} and of the generated wrappers' factories. */
export interface ChildWorkflowOptions {
    /**
     * Overrides bound to every execute of the child. "inherit": the calling
     * invocation's agent overrides instead (see inheritOverrides). Default: none,
     * the child uses its own workflow.yaml.
     */
    overrides?: WorkflowOverrides | "inherit";
    /**
     * With explicit overrides: merge them over the calling invocation's agent
     * overrides (explicit fields win). Inherited entries apply only to the
     * configurations the child declares ("configId" or "configId#label").
     */
    inheritOverrides?: boolean;
}
/**
 * Binds a child-workflow reference and override defaults. It starts nothing:
 * every execute(input) is a separate child invocation with its own execution
 * ID, context, resources and cleanup, configured from the child's own
 * workflow.yaml with these overrides merged in (the caller's configuration
 * and overrides never carry over). execute rejects with WorkflowCycleError
 * when the child is already running as an ancestor of the call, and with
 * ChildWorkflowError (cause: the child's own error) when the child fails.
 */
export declare function createChildWorkflow<I, O>(ref: ChildWorkflowReference, options?: ChildWorkflowOptions): ChildWorkflow<I, O>;
