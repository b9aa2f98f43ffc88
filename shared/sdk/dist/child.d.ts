/** Overrides for one agent of a child workflow; fields merge over the child's workflow.yaml. */
export interface AgentOverride {
    harness?: string;
    provider?: string;
    model?: string | string[];
    effort?: string;
    [key: string]: unknown;
}
/** Overrides a parent binds when it creates a configured child-workflow object. */
export interface WorkflowOverrides {
    agents?: Record<string, AgentOverride>;
    decision?: Record<string, unknown>;
}
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
/** Options of {@link createChildWorkflow}. */
export interface ChildWorkflowOptions {
    overrides?: WorkflowOverrides;
}
/**
 * Binds a child-workflow reference and override defaults. It starts nothing:
 * every execute(input) is a separate child invocation.
 */
export declare function createChildWorkflow<I, O>(ref: ChildWorkflowReference, options?: ChildWorkflowOptions): ChildWorkflow<I, O>;
