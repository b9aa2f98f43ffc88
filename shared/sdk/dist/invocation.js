// One workflow invocation under the runtime lifecycle, the same for the
// top-level workflow of `stratos run` and for every child execute(): a fresh
// context, input validation, run inside the context, output validation, and
// cleanup in finally.
import { ExecutionContext } from "./context.js";
import { CancelledError, InputValidationError, OutputValidationError, toError } from "./errors.js";
import { validate } from "./validate.js";
/**
 * Runs one invocation and resolves with its validated output. It rejects with
 * InputValidationError, OutputValidationError, the CancelledError of a
 * cancellation, or whatever run threw (non-Errors wrapped). Cleanup (active
 * children, owned resources) is complete before it settles. @internal
 */
export async function invoke(spec) {
    const ctx = new ExecutionContext({
        executionId: spec.executionId,
        workflow: spec.workflow,
        config: spec.config,
        overrides: spec.overrides,
        host: spec.host,
        parent: spec.parent,
        ...(spec.journalPath === undefined ? {} : { journalPath: spec.journalPath }),
    });
    spec.onContext?.(ctx);
    // The parent's phase at the call, for the child's start and end alike.
    const phase = spec.parent?.phase() ?? "";
    if (spec.parent !== undefined) {
        recordChildStart(ctx, spec.parent, phase);
    }
    const unlink = linkSignal(spec.signal, ctx);
    let error;
    try {
        const definition = await spec.load();
        const input = await validate(definition.input, spec.input);
        if (!input.ok) {
            throw new InputValidationError(spec.workflow, input.issues);
        }
        await spec.beforeRun?.(ctx);
        const result = await ctx.run(() => definition.run(input.value));
        if (ctx.signal.aborted) {
            throw ctx.signal.reason; // run finished, but the invocation was cancelled meanwhile
        }
        const output = await validate(definition.output, result);
        if (!output.ok) {
            throw new OutputValidationError(spec.workflow, output.issues);
        }
        return output.value;
    }
    catch (err) {
        // Once cancelled, the outcome is the cancellation's reason, whatever the
        // interrupted code threw on its way out (an AbortError, say).
        const reason = ctx.signal.reason;
        error = ctx.signal.aborted ? (reason instanceof Error ? reason : new CancelledError(undefined, { cause: reason })) : toError(err);
        throw error;
    }
    finally {
        unlink();
        await ctx.close(error);
        if (spec.parent !== undefined) {
            recordChildEnd(ctx, spec.parent, phase);
        }
    }
}
// recordChildStart records that ctx, a child of parent, started in parent's phase.
function recordChildStart(ctx, parent, phase) {
    ctx.host.progress?.({ type: "workflow.child.started", executionId: ctx.executionId, workflow: ctx.workflow, details: childOf(parent), ...phaseField(phase) });
}
// recordChildEnd records how ctx, a child of parent, ended: its tree node's
// outcome, once it is closed.
function recordChildEnd(ctx, parent, phase) {
    const node = ctx.node;
    if (node.status === "running") {
        return; // not closed: nothing ended
    }
    const durationMs = Math.max(0, Date.parse(node.endedAt ?? "") - Date.parse(node.startedAt)) || 0;
    ctx.host.progress?.({
        type: "workflow.child.completed",
        executionId: ctx.executionId,
        workflow: ctx.workflow,
        details: { ...childOf(parent), status: node.status, durationMs, ...(node.error === undefined ? {} : { error: node.error }) },
        ...phaseField(phase),
    });
}
function phaseField(phase) {
    return phase === "" ? {} : { phase };
}
// childOf is where a child of parent sits in the run: its parent and the
// top-level invocation (the run's record).
function childOf(parent) {
    let top = parent;
    while (top.parent !== undefined) {
        top = top.parent;
    }
    return { parentExecutionId: parent.executionId, parentWorkflow: parent.workflow, runId: top.executionId };
}
function linkSignal(signal, ctx) {
    if (signal === undefined) {
        return () => { };
    }
    const onAbort = () => ctx.cancel(toError(signal.reason));
    if (signal.aborted) {
        onAbort();
        return () => { };
    }
    signal.addEventListener("abort", onAbort, { once: true });
    return () => signal.removeEventListener("abort", onAbort);
}
