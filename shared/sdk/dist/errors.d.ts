/** One issue of a failed schema validation. */
export interface ValidationIssue {
    /** Dotted path of the offending field ("" for the value itself), e.g. "items.2.name". */
    path: string;
    /** What is wrong, from Zod. */
    message: string;
    /** Zod's issue code, e.g. "invalid_type" or "unrecognized_keys". */
    code?: string;
}
/** The codes of the workflow errors the SDK raises (agent errors: AgentErrorCode). */
export type WorkflowErrorCode = "input_validation" | "output_validation" | "workflow_cycle" | "child_failed" | "cancelled" | "context_closed" | "no_execution_context" | "workflow_not_found" | "workflow_not_referenced" | "workflow_not_built" | "non_error_thrown";
/**
 * The base class of every error the SDK raises. Each SDK error class has
 * one literal code (or a few), so checking `code` on the union
 * {@link SdkError} narrows to the class. Workflow code may raise its own
 * StratosErrors with codes of its own.
 */
export declare class StratosError<C extends string = string> extends Error {
    /** A stable, machine-readable code, e.g. "child_failed". */
    readonly code: C;
    /** Structured context (JSON data). */
    readonly details: Record<string, unknown>;
    constructor(code: C, message: string, options?: {
        cause?: unknown;
        details?: Record<string, unknown> | undefined;
    });
}
/** Input that fails a workflow's input schema (code input_validation). */
export declare class InputValidationError extends StratosError<"input_validation"> {
    readonly workflow: string;
    readonly issues: readonly ValidationIssue[];
    constructor(workflow: string, issues: ValidationIssue[]);
}
/** A result of run that fails the workflow's output schema (code output_validation). */
export declare class OutputValidationError extends StratosError<"output_validation"> {
    readonly workflow: string;
    readonly issues: readonly ValidationIssue[];
    constructor(workflow: string, issues: ValidationIssue[]);
}
/** A child-workflow call that would re-enter an active ancestor (code workflow_cycle). */
export declare class WorkflowCycleError extends StratosError<"workflow_cycle"> {
    /** The workflows from the top-level one to the rejected call, e.g. ["a", "b", "a"]. */
    readonly cycle: readonly string[];
    constructor(cycle: string[]);
}
/** A child workflow invocation that failed; `cause` is the child's own error (code child_failed). */
export declare class ChildWorkflowError extends StratosError<"child_failed"> {
    readonly workflow: string;
    readonly executionId: string;
    constructor(workflow: string, executionId: string, cause: Error);
}
/** The execution was cancelled (code cancelled). */
export declare class CancelledError extends StratosError<"cancelled"> {
    constructor(message?: string, options?: {
        cause?: unknown;
    });
}
/** A primitive used after its execution context stopped running (code context_closed). */
export declare class ContextClosedError extends StratosError<"context_closed"> {
    constructor(operation: string, workflow: string, executionId: string, state: string);
}
/** A primitive called outside any running workflow (code no_execution_context). */
export declare class NoExecutionContextError extends StratosError<"no_execution_context"> {
    constructor(primitive: string);
}
/** A child workflow that is not a valid workflow of the discovery root (code workflow_not_found). */
export declare class WorkflowNotFoundError extends StratosError<"workflow_not_found"> {
    constructor(workflow: string, rootDir: string);
}
/** A child workflow without a successful build (code workflow_not_built). */
/**
 * The calling workflow does not import the child's generated wrapper
 * (.generated/<name>.ts): children are reached only through those typed
 * references, which the build checks and keeps fresh, never by name.
 */
export declare class WorkflowNotReferencedError extends StratosError<"workflow_not_referenced"> {
    constructor(workflow: string, caller: string);
}
export declare class WorkflowNotBuiltError extends StratosError<"workflow_not_built"> {
    constructor(workflow: string, dir: string);
}
/** A thrown value that is not an Error, wrapped (code non_error_thrown). */
export declare class NonErrorThrownError extends StratosError<"non_error_thrown"> {
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
