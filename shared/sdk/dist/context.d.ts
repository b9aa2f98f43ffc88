/** What the runtime associates with one workflow invocation. */
export interface ExecutionContext {
    /** The invocation's execution ID. */
    readonly executionId: string;
}
