/** One issue of a failed schema validation. */
export interface ValidationIssue {
    /** Dotted path of the offending field ("" for the value itself), e.g. "items.2.name". */
    path: string;
    /** What is wrong, from Zod. */
    message: string;
    /** Zod's issue code, e.g. "invalid_type" or "unrecognized_keys". */
    code?: string;
}
/** The base class of every error the SDK raises. */
export declare class StratosError extends Error {
    /** A stable, machine-readable code, e.g. "child_failed". */
    readonly code: string;
    /** Structured context (JSON data). */
    readonly details: Record<string, unknown>;
    constructor(code: string, message: string, options?: {
        cause?: unknown;
        details?: Record<string, unknown>;
    });
}
/** Input that fails a workflow's input schema (code input_validation). */
export declare class InputValidationError extends StratosError {
    readonly workflow: string;
    readonly issues: readonly ValidationIssue[];
    constructor(workflow: string, issues: ValidationIssue[]);
}
/** A result of run that fails the workflow's output schema (code output_validation). */
export declare class OutputValidationError extends StratosError {
    readonly workflow: string;
    readonly issues: readonly ValidationIssue[];
    constructor(workflow: string, issues: ValidationIssue[]);
}
/** A child-workflow call that would re-enter an active ancestor (code workflow_cycle). */
export declare class WorkflowCycleError extends StratosError {
    /** The workflows from the top-level one to the rejected call, e.g. ["a", "b", "a"]. */
    readonly cycle: readonly string[];
    constructor(cycle: string[]);
}
/** A child workflow invocation that failed; `cause` is the child's own error (code child_failed). */
export declare class ChildWorkflowError extends StratosError {
    readonly workflow: string;
    readonly executionId: string;
    constructor(workflow: string, executionId: string, cause: Error);
}
/** The execution was cancelled (code cancelled). */
export declare class CancelledError extends StratosError {
    constructor(message?: string, options?: {
        cause?: unknown;
    });
}
/** A primitive used after its execution context stopped running (code context_closed). */
export declare class ContextClosedError extends StratosError {
    constructor(operation: string, workflow: string, executionId: string, state: string);
}
/** A primitive called outside any running workflow (code no_execution_context). */
export declare class NoExecutionContextError extends StratosError {
    constructor(primitive: string);
}
/** A child workflow that is not a valid workflow of the discovery root (code workflow_not_found). */
export declare class WorkflowNotFoundError extends StratosError {
    constructor(workflow: string, rootDir: string);
}
/** A child workflow without a successful build (code workflow_not_built). */
/**
 * The calling workflow does not import the child's generated wrapper
 * (.generated/<name>.ts): children are reached only through those typed
 * references, which the build checks and keeps fresh, never by name.
 */
export declare class WorkflowNotReferencedError extends StratosError {
    constructor(workflow: string, caller: string);
}
export declare class WorkflowNotBuiltError extends StratosError {
    constructor(workflow: string, dir: string);
}
/** A thrown value that is not an Error, wrapped (code non_error_thrown). */
export declare class NonErrorThrownError extends StratosError {
    /** The thrown value itself. */
    readonly value: unknown;
    constructor(value: unknown);
}
/** Reports whether value is a StratosError (any subclass). */
export declare function isStratosError(value: unknown): value is StratosError;
/** One link of an error's cause chain, as `stratos run` reports it. */
export interface ErrorLink {
    name: string;
    code?: string;
    message: string;
}
