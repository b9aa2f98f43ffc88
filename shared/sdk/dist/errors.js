// The typed errors of the SDK. Every error a primitive throws or rejects with
// is a StratosError with a stable snake_case `code` (part of the public
// contract: workflow code may branch on it, and `stratos run` reports it in
// its error envelope) and, where one error is caused by another, a `cause`.
/**
 * The base class of every error the SDK raises. Each SDK error class has
 * one literal code (or a few), so checking `code` on the union
 * {@link SdkError} narrows to the class. Workflow code may raise its own
 * StratosErrors with codes of its own.
 */
export class StratosError extends Error {
    /** A stable, machine-readable code, e.g. "child_failed". */
    code;
    /** Structured context (JSON data). */
    details;
    constructor(code, message, options) {
        super(message, options?.cause === undefined ? undefined : { cause: options.cause });
        this.name = "StratosError";
        this.code = code;
        this.details = options?.details ?? {};
    }
}
/** Input that fails a workflow's input schema (code input_validation). */
export class InputValidationError extends StratosError {
    workflow;
    issues;
    constructor(workflow, issues) {
        super("input_validation", `invalid input for workflow "${workflow}": ${issueText(issues)}`, { details: { workflow, issues } });
        this.name = "InputValidationError";
        this.workflow = workflow;
        this.issues = Object.freeze(issues);
    }
}
/** A result of run that fails the workflow's output schema (code output_validation). */
export class OutputValidationError extends StratosError {
    workflow;
    issues;
    constructor(workflow, issues) {
        super("output_validation", `workflow "${workflow}" returned output that does not match its output schema: ${issueText(issues)}`, {
            details: { workflow, issues },
        });
        this.name = "OutputValidationError";
        this.workflow = workflow;
        this.issues = Object.freeze(issues);
    }
}
/** A child-workflow call that would re-enter an active ancestor (code workflow_cycle). */
export class WorkflowCycleError extends StratosError {
    /** The workflows from the top-level one to the rejected call, e.g. ["a", "b", "a"]. */
    cycle;
    constructor(cycle) {
        const called = cycle[cycle.length - 1];
        super("workflow_cycle", `workflow cycle ${cycle.join(" → ")}: "${called}" is already running as an ancestor of this call; recursive workflow invocation is not supported`, { details: { cycle } });
        this.name = "WorkflowCycleError";
        this.cycle = Object.freeze([...cycle]);
    }
}
/** A child workflow invocation that failed; `cause` is the child's own error (code child_failed). */
export class ChildWorkflowError extends StratosError {
    workflow;
    executionId;
    constructor(workflow, executionId, cause) {
        super("child_failed", `child workflow "${workflow}" failed: ${cause.message}`, { cause, details: { workflow, executionId } });
        this.name = "ChildWorkflowError";
        this.workflow = workflow;
        this.executionId = executionId;
    }
}
/** The execution was cancelled (code cancelled). */
export class CancelledError extends StratosError {
    constructor(message = "the execution was cancelled", options) {
        super("cancelled", message, options);
        this.name = "CancelledError";
    }
}
// The cancellations of runs whose stratos run is gone: the SDK's
// cancellations of their agents' calls say so (agent.cancel's orphaned),
// for an engine that hands the run's calls to the code's next attempt.
const orphanedCancellations = new WeakSet();
/** A cancellation because the stratos run the runtime answers to is gone. @internal */
export function orphanedCancellation(message) {
    const err = new CancelledError(message);
    orphanedCancellations.add(err);
    return err;
}
/** Whether reason (an abort signal's) is an orphanedCancellation. @internal */
export function isOrphanedCancellation(reason) {
    return reason instanceof Error && orphanedCancellations.has(reason);
}
/** A primitive used after its execution context stopped running (code context_closed). */
export class ContextClosedError extends StratosError {
    constructor(operation, workflow, executionId, state) {
        super("context_closed", `${operation}: the execution of workflow "${workflow}" (${executionId}) is ${state}; it accepts no new work`, { details: { workflow, executionId, state } });
        this.name = "ContextClosedError";
    }
}
/** A primitive called outside any running workflow (code no_execution_context). */
export class NoExecutionContextError extends StratosError {
    constructor(primitive) {
        super("no_execution_context", `${primitive} must be called inside a running workflow (from run or code it calls), not at module level or after the workflow finished`);
        this.name = "NoExecutionContextError";
    }
}
/** A child workflow that is not a valid workflow of the discovery root (code workflow_not_found). */
export class WorkflowNotFoundError extends StratosError {
    constructor(workflow, rootDir) {
        super("workflow_not_found", `child workflow "${workflow}" is not a valid workflow of the discovery root ${rootDir}: check its workflow.yaml with \`stratos list\`, then run \`stratos build ${workflow}\``, { details: { workflow, rootDir } });
        this.name = "WorkflowNotFoundError";
    }
}
/** A child workflow without a successful build (code workflow_not_built). */
/**
 * The calling workflow does not import the child's generated wrapper
 * (.generated/<name>.ts): children are reached only through those typed
 * references, which the build checks and keeps fresh, never by name.
 */
export class WorkflowNotReferencedError extends StratosError {
    constructor(workflow, caller) {
        super("workflow_not_referenced", `workflow "${caller}" cannot run child workflow "${workflow}": it does not import its generated wrapper; import it from ".generated/${workflow}.js" and call that (looking children up by name is not supported)`, { details: { child: workflow, caller } });
        this.name = "WorkflowNotReferencedError";
    }
}
export class WorkflowNotBuiltError extends StratosError {
    constructor(workflow, dir) {
        super("workflow_not_built", `child workflow "${workflow}" (${dir}) is not built: run \`stratos build ${workflow}\``, {
            details: { workflow, dir },
        });
        this.name = "WorkflowNotBuiltError";
    }
}
/** A thrown value that is not an Error, wrapped (code non_error_thrown). */
export class NonErrorThrownError extends StratosError {
    /** The thrown value itself. */
    value;
    constructor(value) {
        super("non_error_thrown", `a value that is not an Error was thrown: ${preview(value)}`);
        this.name = "NonErrorThrownError";
        this.value = value;
    }
}
/** Reports whether value is a StratosError (any subclass). */
export function isStratosError(value) {
    return value instanceof StratosError;
}
/** Returns value if it is an Error, else wraps it in a NonErrorThrownError. @internal */
export function toError(value) {
    return value instanceof Error ? value : new NonErrorThrownError(value);
}
/** The error and its causes, outermost first (at most 32 links; cycles are cut). @internal */
export function errorChain(error) {
    const links = [];
    const seen = new Set();
    for (let e = error; e !== undefined && links.length < 32 && !seen.has(e);) {
        seen.add(e);
        const err = toError(e);
        const code = err.code;
        links.push(typeof code === "string" ? { name: err.name, code, message: err.message } : { name: err.name, message: err.message });
        e = err === e ? err.cause : undefined;
    }
    return links;
}
/** The code of an error: a StratosError's own, else "workflow_failed". @internal */
export function errorCode(error) {
    return isStratosError(error) ? error.code : "workflow_failed";
}
/** The issues for people: `field "a.b": message; …`, the first five, then how many more. @internal */
export function issueText(issues) {
    const parts = issues.slice(0, 5).map((i) => (i.path === "" ? i.message : `field "${i.path}": ${i.message}`));
    if (issues.length > 5) {
        parts.push(`and ${issues.length - 5} more`);
    }
    return parts.join("; ");
}
function preview(value) {
    try {
        const text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
        return text.length > 200 ? text.slice(0, 200) + "…" : text;
    }
    catch {
        return String(value);
    }
}
