import type { WorkflowConfig, WorkflowOverrides } from "./config.js";
/** Lifecycle of an execution context: running → closing (cleanup under way) → closed. */
export type ExecutionState = "running" | "closing" | "closed";
/** How an invocation ended (running while it has not). */
export type InvocationStatus = "running" | "succeeded" | "failed" | "cancelled";
/**
 * A resource an execution owns and closes when it ends (agents implement
 * this). close() must be safe to call more than once; a rejection is
 * reported as a warning, never as the execution's error.
 */
export interface OwnedResource {
    close(): Promise<void>;
}
/** One invocation in the run's invocation tree. */
export interface InvocationNode {
    executionId: string;
    workflow: string;
    status: InvocationStatus;
    startedAt: string;
    endedAt?: string;
    error?: {
        code: string;
        message: string;
    };
    children: InvocationNode[];
}
/** What workflow code may know about the invocation it runs in. */
export interface ExecutionInfo {
    /** This invocation's execution ID. */
    readonly executionId: string;
    /** This invocation's workflow name. */
    readonly workflow: string;
    /** The execution IDs of the enclosing invocations, top-level first (empty at the top level). */
    readonly parentExecutionIds: readonly string[];
    /** The workflows of the enclosing invocations, top-level first. */
    readonly parentWorkflows: readonly string[];
    /** The invocation overrides this invocation received. */
    readonly overrides: Readonly<WorkflowOverrides>;
    /** The invocation's configuration: its own workflow.yaml with the overrides merged in. */
    readonly config: WorkflowConfig;
}
/**
 * Describes the invocation the calling code runs in: its execution ID,
 * workflow, enclosing invocations, overrides and resolved configuration.
 * Throws NoExecutionContextError outside a running workflow.
 */
export declare function executionInfo(): ExecutionInfo;
/**
 * The AbortSignal of the invocation the calling code runs in: it aborts when
 * the invocation is cancelled (Ctrl-C, or its parent failed). Pass it to
 * long waits (timers, fetch, child processes) so that they stop promptly.
 * Throws NoExecutionContextError outside a running workflow.
 */
export declare function cancellationSignal(): AbortSignal;
