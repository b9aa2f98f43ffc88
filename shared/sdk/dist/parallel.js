// parallel and pipeline: barriers over async work with a concurrency limit,
// for fan-out code. They respect admission (docs/agents.md): each running thunk
// (or item) is one unit of work, so a concurrency no larger than
// agents.maxOutstanding never makes an agent call fail admission, where a
// Promise.all over more agents than that would.
//
// A failure either rejects the whole call (the default) or, with
// onError: "null", becomes null in its slot; only execution failures
// (isExecutionFailure) are turned into null: errors that say the workflow
// itself is broken, or that it was cancelled, always reject. On a rejection
// the work not started yet never starts, the signal handed to the running
// work aborts, and the call rejects once that work has settled: nothing a
// parallel or pipeline started outlives it. A parallel or pipeline started
// inside a thunk (or stage) aborts with the enclosing call's signal, so the
// signal to pass in nested fan-outs is always the innermost one, the one
// the running thunk was given.
import { AsyncLocalStorage } from "node:async_hooks";
import { contextStorage } from "./context.js";
import { ChildWorkflowError, toError } from "./errors.js";
import { isSdkError } from "./sdk-errors.js";
// The codes of SDK errors that are failures of one execution (an agent's
// turn, its output, its harness session starting, an author hook, a child
// workflow's own run, a decision's answer) rather than of the workflow's
// configuration, the run's admission limit or its cancellation.
const executionCodes = new Set(["execution", "structured_output", "initialization", "hook_failed", "output_validation", "decision_invalid_answer"]);
// Errors of the language runtime: bugs in the workflow's own code.
const programmingErrors = [TypeError, ReferenceError, SyntaxError, RangeError];
/**
 * Whether err is the failure of one execution, which onError: "null" turns
 * into null: an agent's execution, structured output, initialization or
 * hook failure; a decision's invalid answer; a child workflow that failed with one of those or with its
 * own error; or an error the workflow's code threw itself (not a
 * TypeError, ReferenceError, SyntaxError or RangeError, which are bugs).
 * Every other SDK error is not: configuration, prompt and template errors,
 * authentication, unavailable harnesses and models, admission, concurrent
 * use, cancellation, closed contexts, missing or unbuilt children, cycles,
 * invalid child input, and the host's internal and protocol errors.
 */
export function isExecutionFailure(err) {
    if (err instanceof ChildWorkflowError) {
        return isExecutionFailure(err.cause);
    }
    if (isSdkError(err)) {
        return executionCodes.has(err.code);
    }
    if (err instanceof AggregateError) {
        // execute's own failure followed by its onError hook's: judged by the first.
        return err.errors.length > 0 && isExecutionFailure(err.errors[0]);
    }
    return err instanceof Error && !programmingErrors.some((cls) => err instanceof cls);
}
/**
 * Runs thunks, at most options.concurrency at a time, in order of
 * position, and resolves to their results in the same positions. With
 * onError: "null" an execution failure becomes null; any other failure
 * rejects: thunks not started are never started, the signal of the running
 * ones aborts, and the returned promise rejects with the first failure once
 * they have settled. A thunk that ignores its signal is awaited all the
 * same. Cancelling the execution works the same way (with CancelledError).
 */
export function parallel(thunks, options) {
    return run(thunks, options, "parallel()");
}
export function pipeline(items, ...rest) {
    const last = rest[rest.length - 1];
    const options = typeof last === "function" ? undefined : rest.pop();
    if (!Array.isArray(items)) {
        return Promise.reject(new TypeError("pipeline(): items must be an array"));
    }
    if (rest.length === 0 || rest.some((s) => typeof s !== "function")) {
        return Promise.reject(new TypeError("pipeline(): give one or more stage functions after the items (and the options last)"));
    }
    const stages = rest;
    const thunks = items.map((item, index) => async (signal) => {
        let value = item;
        for (const stage of stages) {
            signal.throwIfAborted();
            value = await stage(value, index, signal);
        }
        return value;
    });
    return run(thunks, options, "pipeline()");
}
/**
 * A type guard, not a filter: nonNull(value) says whether one value is
 * neither null nor undefined. Hand it to an array's filter to drop the
 * nulls, typed: `xs.filter(nonNull)` is NonNullable<T>[]. `nonNull(xs)` is
 * a boolean about the array itself.
 */
export function nonNull(value) {
    return value !== null && value !== undefined;
}
function checkOptions(options, operation) {
    if (options === undefined) {
        return {};
    }
    if (typeof options !== "object" || options === null || Array.isArray(options)) {
        throw new TypeError(`${operation}: options must be an object { concurrency?, onError? }`);
    }
    for (const key of Object.keys(options)) {
        if (key !== "concurrency" && key !== "onError") {
            throw new TypeError(`${operation}: unknown option "${key}" (known: concurrency, onError)`);
        }
    }
    const { concurrency, onError } = options;
    if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency > 0)) {
        throw new TypeError(`${operation}: concurrency must be a positive integer, got ${String(concurrency)}`);
    }
    if (onError !== undefined && onError !== "reject" && onError !== "null") {
        throw new TypeError(`${operation}: onError must be "reject" or "null", got ${String(onError)}`);
    }
    return options;
}
const enclosingKey = Symbol.for("stratos.sdk.parallel.als");
// enclosingSignal holds the signal of the parallel or pipeline whose thunk
// is running: a call started inside that thunk follows it, as it follows
// the execution's cancellation, so that its thunks need only the signal
// they are given. Process-wide like the context store, so that two copies
// of the SDK nest too.
function enclosingSignal() {
    const slot = globalThis;
    return (slot[enclosingKey] ??= new AsyncLocalStorage());
}
/** The shared scheduler of parallel and pipeline. */
async function run(thunks, rawOptions, operation) {
    if (!Array.isArray(thunks) || thunks.some((t) => typeof t !== "function")) {
        throw new TypeError(`${operation}: give an array of functions (thunks), e.g. items.map((x) => () => work(x))`);
    }
    const options = checkOptions(rawOptions, operation);
    const limit = options.concurrency ?? Number.POSITIVE_INFINITY;
    const keepGoing = options.onError === "null" ? isExecutionFailure : () => false;
    const controller = new AbortController();
    // Cancelling the execution, or abandoning the enclosing parallel or
    // pipeline, abandons the call like a failure does.
    const outers = [contextStorage().getStore()?.signal, enclosingSignal().getStore()].filter(nonNull);
    const onCancel = (outer) => () => controller.abort(toError(outer.reason));
    const listeners = outers.map((outer) => {
        const listener = onCancel(outer);
        outer.addEventListener("abort", listener, { once: true });
        return { outer, listener };
    });
    const aborted = outers.find((outer) => outer.aborted);
    if (aborted !== undefined) {
        onCancel(aborted)();
    }
    const results = new Array(thunks.length);
    let next = 0;
    let failure;
    const worker = async () => {
        while (next < thunks.length && !controller.signal.aborted) {
            const i = next++;
            try {
                results[i] = await enclosingSignal().run(controller.signal, () => thunks[i](controller.signal));
            }
            catch (err) {
                if (!controller.signal.aborted && keepGoing(err)) {
                    results[i] = null;
                    continue;
                }
                failure ??= { error: err };
                controller.abort(toError(err));
            }
        }
    };
    try {
        await Promise.all(Array.from({ length: Math.min(limit, thunks.length) }, worker));
    }
    finally {
        for (const { outer, listener } of listeners) {
            outer.removeEventListener("abort", listener);
        }
    }
    if (controller.signal.aborted) {
        // A cancellation that arrived with no thunk failing rejects with its reason.
        throw failure === undefined ? controller.signal.reason : toError(failure.error);
    }
    return results;
}
